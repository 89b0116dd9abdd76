import { describe, expect, it } from 'vitest'
import { CollectorStats } from '../../../src/server/metrics/collector-stats'
import { escapeLabelValue, renderExposition } from '../../../src/server/metrics/exposition'

describe('Prometheus text exposition', () => {
  it('renders HELP, TYPE and samples with labels', () => {
    const text = renderExposition([
      {
        name: 'a_b',
        help: 'Help with \\ and\nnewline.',
        type: 'gauge',
        samples: [{ labels: { host: 'h1', x: 'y' }, value: 1.5 }, { value: 2 }]
      },
      {
        name: 'c_seconds',
        help: 'A histogram.',
        type: 'histogram',
        samples: [
          { suffix: '_bucket', labels: { le: '+Inf' }, value: 3 },
          { suffix: '_sum', value: 0.25 },
          { suffix: '_count', value: 3 }
        ]
      }
    ])
    expect(text).toBe(
      [
        '# HELP a_b Help with \\\\ and\\nnewline.',
        '# TYPE a_b gauge',
        'a_b{host="h1",x="y"} 1.5',
        'a_b 2',
        '# HELP c_seconds A histogram.',
        '# TYPE c_seconds histogram',
        'c_seconds_bucket{le="+Inf"} 3',
        'c_seconds_sum 0.25',
        'c_seconds_count 3',
        ''
      ].join('\n')
    )
  })

  it('escapes backslash, double quote and newline in label values', () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd')
    const text = renderExposition([{ name: 'm', help: 'h', type: 'gauge', samples: [{ labels: { service: 'we"ird\\\nname' }, value: 0 }] }])
    expect(text.split('\n')[2]).toBe('m{service="we\\"ird\\\\\\nname"} 0')
  })

  it('writes special values the way Prometheus reads them', () => {
    const text = renderExposition([
      { name: 'm', help: 'h', type: 'gauge', samples: [{ value: NaN }, { value: Infinity }, { value: -Infinity }, { value: -1 }] }
    ])
    expect(text.split('\n').slice(2, 6)).toEqual(['m NaN', 'm +Inf', 'm -Inf', 'm -1'])
  })

  it('refuses invalid metric and label names', () => {
    expect(() => renderExposition([{ name: '1bad', help: 'h', type: 'gauge', samples: [] }])).toThrow(/metric name/)
    expect(() => renderExposition([{ name: 'm', help: 'h', type: 'gauge', samples: [{ labels: { 'a-b': 'x' }, value: 1 }] }])).toThrow(
      /label name/
    )
  })
})

describe('collector stats', () => {
  it('counts messages, cumulative latency buckets and the rate over the last minute', () => {
    let now = 1_000_000
    const stats = new CollectorStats(() => now)
    stats.record(0.0002)
    stats.record(0.003)
    now += 30_000
    stats.record(5)
    expect(stats.messagesTotal).toBe(3)
    const latency = stats.latency()
    expect(latency.count).toBe(3)
    expect(latency.sum).toBeCloseTo(5.0032)
    expect(latency.buckets[0]).toBe(1) // ≤ 0.5 ms
    expect(latency.buckets[3]).toBe(2) // ≤ 5 ms
    expect(latency.buckets.at(-1)).toBe(2) // 5 s is above every bound: only +Inf holds it
    expect(stats.ratePerSecond()).toBeCloseTo(3 / 60)
    now += 45_000 // the first two are now more than a minute old
    expect(stats.ratePerSecond()).toBeCloseTo(1 / 60)
  })
})
