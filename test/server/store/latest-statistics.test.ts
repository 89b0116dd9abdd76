import { describe, expect, it } from 'vitest'
import { decodeStatistics, encodeStatistic } from '../../../src/server/store/latest-statistics'

describe('encodeStatistic', () => {
  const cases: [number, string, number, string | undefined][] = [
    [1, '', 0, undefined],
    [7, 'avg05', 0.48, undefined],
    [30, '127.0.0.1:2812 [DEFAULT/TCP] #2', 0.000085, undefined],
    [12, '', -1.5e-7, undefined],
    [3, '', 1795300296561268, undefined],
    [40, '', 0, 'labprog says "hello"\n\u0001 at ]]> \\ \u2028'],
    [41, 'odd "descriptor" \\', Number.NaN, ''],
    [42, '', Number.POSITIVE_INFINITY, undefined]
  ]

  it('writes exactly what JSON.stringify writes for the same tuple', () => {
    for (const [type, descriptor, value, text] of cases) {
      expect(encodeStatistic(type, descriptor, value, text)).toBe(JSON.stringify([type, descriptor, value, text ?? null]))
    }
  })

  it('reads back as the statistics written, in order', () => {
    const json = `[${cases.map((c) => encodeStatistic(...c)).join(',')}]`
    expect(decodeStatistics(json)).toEqual(
      cases.map(([type, descriptor, value, text]) => ({
        type,
        descriptor,
        value: Number.isFinite(value) ? value : null,
        text: text ?? null
      }))
    )
  })
})
