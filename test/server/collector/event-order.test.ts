// Issue 12 over real HTTP: events are facts whatever order they arrive in (queue replays interleave with
// live events), and only the re-send of a still-failing state after a restart or reload is suppressed.
// Times are relative to the test's clock.
import { describe, expect, it } from 'vitest'
import type { EventListEntry } from '../../../src/shared/api/events'
import type { ApiClient } from '../../support/api-client'
import { fixture } from '../../support/fixtures'
import { shiftTime, withEvent, withIncarnation } from '../../support/payloads'
import type { TestServer } from '../../support/in-process-server'
import { serverForEachTest } from '../../support/server-per-test'

// Fixture 12: labprog's "status failed" (event class Status) of incarnation 1795300230, at …296.
const FIXTURE_EVENT_SEC = 1795300296
const FIXTURE_INCARNATION = 1795300230

let server: TestServer
let admin: ApiClient
serverForEachTest((started) => {
  ;({ server, admin } = started)
})

/** Fixture 12 moved so that its event happens at `sec`, from an agent whose incarnation began at `incarnation`. */
function labprog(sec: number, state: number, incarnation: number): string {
  const moved = withIncarnation(shiftTime(fixture('12-event-program-status-failed'), sec - FIXTURE_EVENT_SEC), incarnation)
  return withEvent(moved, { state, message: `labprog ${state === 1 ? 'failed' : 'succeeded'} at ${sec}` })
}

/** Fixture 08 ("Monit reloaded") moved to `sec`, its incarnation beginning then. */
function reloaded(sec: number): string {
  const shift = sec - FIXTURE_INCARNATION - 228 // fixture 08 was reloaded at …458
  return withIncarnation(shiftTime(fixture('08-event-monit-reloaded'), shift), sec)
}

async function post(body: string): Promise<void> {
  await server.collect(body)
}

async function labprogEvents(params: Record<string, number> = {}): Promise<Pick<EventListEntry, 'date' | 'state' | 'active'>[]> {
  const res = await admin.get('/api/1/reports/events/list', { sort: 'date', dir: 'asc', ...params })
  expect(res.status, res.text).toBe(200)
  return (res.json as { records: EventListEntry[] }).records
    .filter((e) => e.servicename === 'labprog')
    .map(({ date, state, active }) => ({ date, state, active }))
}

function labprogIntervals(): { start: number; end: number | null }[] {
  return server.store.sql.plain
    .prepare(
      `SELECT start, "end" FROM state_interval WHERE service_name_id = (SELECT id FROM service_name WHERE name = 'labprog') ORDER BY start`
    )
    .all() as { start: number; end: number | null }[]
}

describe('events arriving out of agent-time order', () => {
  it('stores a failure at T, a failure at T+20 and a recovery at T+10 posted in that order; T+20 stays active', async () => {
    const T = Math.floor(Date.now() / 1000) - 120
    const incarnation = T - 60
    await post(labprog(T, 1, incarnation))
    await post(labprog(T + 20, 1, incarnation))
    await post(labprog(T + 10, 0, incarnation))
    expect(await labprogEvents()).toEqual([
      { date: T, state: 1, active: 0 },
      { date: T + 10, state: 0, active: 0 },
      { date: T + 20, state: 1, active: 1 }
    ])
    expect(await labprogEvents({ active: 1 })).toEqual([{ date: T + 20, state: 1, active: 1 }])
    expect(labprogIntervals()).toEqual([
      { start: T, end: T + 10 },
      { start: T + 20, end: null }
    ])
    // The same three again, as a replay would send them: nothing new.
    for (const [sec, state] of [
      [T, 1],
      [T + 20, 1],
      [T + 10, 0]
    ])
      await post(labprog(sec, state, incarnation))
    expect(await labprogEvents()).toHaveLength(3)
  })
})

describe('re-sends after a reload or restart', () => {
  it('suppresses the failure a reload re-sends while the service is still failing', async () => {
    const T = Math.floor(Date.now() / 1000) - 120
    await post(labprog(T, 1, T - 60))
    await post(reloaded(T + 30))
    await post(labprog(T + 31, 1, T + 30)) // the re-initialised service fails again: the same failure
    expect(await labprogEvents()).toEqual([{ date: T, state: 1, active: 1 }])
    await post(labprog(T + 40, 0, T + 30))
    await post(labprog(T + 50, 1, T + 30)) // a new failure after the recovery is a fact
    expect(await labprogEvents()).toEqual([
      { date: T, state: 1, active: 0 },
      { date: T + 40, state: 0, active: 0 },
      { date: T + 50, state: 1, active: 1 }
    ])
  })

  it('suppresses the re-send of a restarted agent known only from its new incarnation', async () => {
    const T = Math.floor(Date.now() / 1000) - 120
    await post(labprog(T, 1, T - 60))
    await post(labprog(T + 30, 1, T + 29)) // the first message of the new incarnation to arrive
    expect(await labprogEvents()).toEqual([{ date: T, state: 1, active: 1 }])
  })

  it('keeps the original and drops its re-send when the queue delivers the re-send first', async () => {
    const T = Math.floor(Date.now() / 1000) - 120
    await post(labprog(T - 10, 0, T - 60))
    await post(labprog(T + 31, 1, T + 30)) // the re-send of the restarted agent, delivered first
    await post(labprog(T, 1, T + 30)) // the original failure, replayed from the queue by the new incarnation
    expect(await labprogEvents()).toEqual([
      { date: T - 10, state: 0, active: 0 },
      { date: T, state: 1, active: 1 }
    ])
    expect(labprogIntervals()).toEqual([{ start: T, end: null }])
    const counts = server.store.sql.plain
      .prepare(
        `SELECT h.events_count AS host, s.events_count AS service FROM host h
      JOIN service s ON s.host_id = h.id AND s.name = 'labprog'`
      )
      .get()
    expect(counts).toEqual({ host: 2, service: 2 })
  })

  it('stores a failure queued by an earlier incarnation and replayed by a later one', async () => {
    const T = Math.floor(Date.now() / 1000) - 120
    await post(labprog(T, 1, T - 60))
    await post(labprog(T + 10, 0, T - 60))
    // The agent restarted at T+29; its queue still held the failure at T+20 of the earlier incarnation.
    await post(labprog(T + 20, 1, T + 29))
    expect(await labprogEvents()).toEqual([
      { date: T, state: 1, active: 0 },
      { date: T + 10, state: 0, active: 0 },
      { date: T + 20, state: 1, active: 1 }
    ])
  })
})
