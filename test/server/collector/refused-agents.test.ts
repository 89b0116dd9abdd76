// The refused agents' list and its log lines: bounded whatever arrives, cleared by the right event only,
// and a log that a stream of refusals cannot flood.
import { describe, expect, it } from 'vitest'
import { RefusalLog, MAX_PER_MINUTE } from '../../../src/server/collector/refusal-log'
import { RefusedAgents } from '../../../src/server/collector/refused-agents'

const clock = (startMs = 1_800_000_000_000) => {
  let ms = startMs
  return { now: () => ms, advance: (by: number) => (ms += by) }
}

describe('RefusedAgents', () => {
  it('keeps one entry per address, user name and reason, with its count and first and last times', () => {
    const time = clock()
    const refused = new RefusedAgents(10, time.now)
    expect(refused.refused('10.0.0.5', 'monit', 'wrong_password').first).toBe(true)
    time.advance(30_000)
    expect(refused.refused('10.0.0.5', 'monit', 'wrong_password').first).toBe(false)
    refused.refused('10.0.0.5', 'monit', 'too_large')
    expect(refused.list()).toEqual([
      { id: 2, address: '10.0.0.5', uname: 'monit', reason: 'too_large', first: 1_800_000_030, last: 1_800_000_030, count: 1 },
      { id: 1, address: '10.0.0.5', uname: 'monit', reason: 'wrong_password', first: 1_800_000_000, last: 1_800_000_030, count: 2 }
    ])
    expect(refused.totalsByReason().get('wrong_password')).toBe(2)
    expect(refused.totalsByReason().get('malformed')).toBe(0)
  })

  it('holds at most its bound, forgetting the least recently refused first, and cuts long names and addresses', () => {
    const refused = new RefusedAgents(3)
    refused.refused('10.0.0.1', 'a', 'unknown_user')
    refused.refused('10.0.0.2', 'b', 'unknown_user')
    refused.refused('10.0.0.3', 'c', 'unknown_user')
    refused.refused('10.0.0.1', 'a', 'unknown_user') // refused again: now the latest
    refused.refused('10.0.0.4', 'x'.repeat(5000), 'unknown_user')
    expect(refused.list().map((e) => e.address)).toEqual(['10.0.0.4', '10.0.0.1', '10.0.0.3'])
    expect(refused.list()[0]!.uname).toHaveLength(64)
    expect(refused.dropped).toBe(1)
    for (let i = 0; i < 1000; i++) refused.refused(`${'f'.repeat(200)}${i}`, `u${i}`, 'malformed')
    expect(refused.list()).toHaveLength(3)
    expect(refused.list()[0]!.address).toHaveLength(64)
    expect(refused.totalsByReason().get('malformed')).toBe(1000)
  })

  it("clears an agent's login refusals once one of its messages is stored, not its refused messages nor other agents'", () => {
    const refused = new RefusedAgents()
    refused.refused('10.0.0.5', 'monit', 'wrong_password')
    refused.refused('10.0.0.5', 'monit', 'locked_out')
    refused.refused('10.0.0.5', 'monit', 'malformed')
    refused.refused('10.0.0.6', 'monit', 'wrong_password')
    refused.refused('10.0.0.5', 'other', 'unknown_user')
    refused.succeeded('10.0.0.5', 'monit')
    expect(refused.list().map((e) => `${e.address} ${e.uname} ${e.reason}`)).toEqual([
      '10.0.0.5 other unknown_user',
      '10.0.0.6 monit wrong_password',
      '10.0.0.5 monit malformed'
    ])
  })

  it('dismisses by id, once', () => {
    const refused = new RefusedAgents()
    const { entry } = refused.refused('10.0.0.5', 'monit', 'malformed')
    expect(refused.dismiss(entry.id)).toBe(true)
    expect(refused.dismiss(entry.id)).toBe(false)
    expect(refused.list()).toEqual([])
    // Refused again: a new entry, counted from one.
    expect(refused.refused('10.0.0.5', 'monit', 'malformed')).toMatchObject({ first: true, entry: { count: 1 } })
  })
})

describe('RefusalLog', () => {
  const lines = () => {
    const written: string[] = []
    return { written, log: { info: () => {}, error: () => {}, warn: (line: string) => written.push(line) } }
  }

  it('warns at the first refusal, then at the 10th, 100th …, with the cause and no password', () => {
    const { written, log } = lines()
    const refused = new RefusedAgents()
    const refusalLog = new RefusalLog(log)
    for (let i = 0; i < 150; i++) refusalLog.refused(refused.refused('10.0.0.5', 'monit', 'wrong_password'))
    expect(written).toHaveLength(3)
    expect(written[0]).toBe(
      `collector: refused user "monit" from 10.0.0.5: wrong password: the password in its set mmonit URL is not this user's`
    )
    expect(written[2]).toMatch(/^collector: refused user "monit" from 10\.0\.0\.5 \(100 times since \d{4}-\d\d-\d\dT/)
  })

  it('writes at most its lines a minute however many names are tried, and says how many it held back', () => {
    const { written, log } = lines()
    const time = clock()
    const refused = new RefusedAgents(1000, time.now)
    const refusalLog = new RefusalLog(log, time.now)
    for (let i = 0; i < 500; i++) refusalLog.refused(refused.refused('10.0.0.9', `guess${i}\nFAKE LINE`, 'unknown_user'))
    expect(written).toHaveLength(MAX_PER_MINUTE)
    expect(written.every((line) => !line.includes('\n'))).toBe(true)
    time.advance(60_000)
    refusalLog.refused(refused.refused('10.0.0.9', 'late', 'unknown_user'))
    expect(written.at(-1)).toMatch(new RegExp(`; ${500 - MAX_PER_MINUTE} more refusal warnings were held back$`))
  })
})
