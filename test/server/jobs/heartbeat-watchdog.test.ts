import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EventClassId, HostStatus, Led } from '../../../src/shared/codes'
import { HeartbeatWatchdog } from '../../../src/server/jobs/heartbeat-watchdog'
import { asAgent, fixture } from '../../support/fixtures'
import { shiftTime } from '../../support/payloads'
import { tempStore, type TempStore } from '../../support/temp-store'
import { hostOfAgent } from '../../support/hosts'

const T0 = 1795300500_000 // ms; fixture 02 reports poll 5 s, so the default skew 3 gives 15 s
let t: TempStore
let watchdog: HeartbeatWatchdog
beforeEach(() => {
  t = tempStore()
  watchdog = new HeartbeatWatchdog(t.store)
})
afterEach(() => t.close())

const host = () => hostOfAgent(t.store, '39900374079c371b7380946708ce1e29')!
const heartbeatEvents = () =>
  t.store.sql.plain.prepare('SELECT state, message, date, active FROM event WHERE class = ? ORDER BY id').all(EventClassId.Heartbeat) as {
    state: number
    message: string
    date: number
    active: number
  }[]
const hostIntervals = () =>
  t.store.sql.plain.prepare('SELECT start, "end" FROM state_interval WHERE service_name_id IS NULL ORDER BY id').all()

describe('heartbeat watchdog', () => {
  it('declares the heartbeat dead exactly skew × poll after the last message', () => {
    t.post(fixture('02-status-heartbeat'), T0)
    expect(watchdog.check(T0 + 14_999)).toBe(0)
    expect(host().heartbeat).toBe(1)
    expect(watchdog.check(T0 + 15_000)).toBe(1)
    expect(host()).toMatchObject({ heartbeat: 0, led: Led.Red, status_text: 'No report from Monit', inactive_since: T0 / 1000 })
    expect(heartbeatEvents()).toEqual([{ state: 1, message: 'No report from Monit for 15 seconds', date: T0 / 1000 + 15, active: 1 }])
    // Silence began when the next heartbeat was due: one poll after the last message.
    expect(hostIntervals()).toEqual([{ start: T0 / 1000 + 5, end: null }])
    expect(watchdog.check(T0 + 60_000)).toBe(0) // reported once, not on every tick
  })

  it('restores the heartbeat on the next message, closing the interval', () => {
    t.post(fixture('02-status-heartbeat'), T0)
    watchdog.check(T0 + 15_000)
    t.post(shiftTime(fixture('02-status-heartbeat'), 40), T0 + 40_000)
    expect(host()).toMatchObject({ heartbeat: 1, led: Led.Orange, inactive_since: null })
    expect(heartbeatEvents().map((e) => [e.state, e.message, e.active])).toEqual([
      [1, 'No report from Monit for 15 seconds', 0],
      [0, 'Monit reports again', 0]
    ])
    expect(hostIntervals()).toEqual([{ start: T0 / 1000 + 5, end: T0 / 1000 + 40 }])
  })

  it('uses the host skew when set', () => {
    t.post(fixture('02-status-heartbeat'), T0)
    t.store.hosts.update(host().id, { skew: 10 })
    t.post(shiftTime(fixture('02-status-heartbeat'), 1), T0 + 1000)
    expect(watchdog.check(T0 + 1000 + 49_999)).toBe(0)
    expect(watchdog.check(T0 + 1000 + 50_000)).toBe(1)
  })

  it('does not watch hosts that stopped in order, or that are ignored', () => {
    t.post(fixture('05-event-monit-stopped'), T0)
    t.post(fixture('09-event-agent2-started-no-credentials'), T0)
    const agent2 = hostOfAgent(t.store, '52f8e433d90c74acfca9e2891ec45156')!
    t.store.hosts.update(agent2.id, { status: HostStatus.Ignored })
    t.post(shiftTime(fixture('09-event-agent2-started-no-credentials'), 1), T0)
    expect(watchdog.check(T0 + 3_600_000)).toBe(0)
    expect(heartbeatEvents()).toHaveLength(0)
  })

  it('catches hosts that fell silent while the server was down', () => {
    t.post(fixture('02-status-heartbeat'), T0)
    // The first check after a restart, long after the deadline.
    expect(watchdog.check(T0 + 3_600_000)).toBe(1)
    expect(hostIntervals()).toEqual([{ start: T0 / 1000 + 5, end: null }])
  })

  describe('after the server was down (issue 12)', () => {
    it('gives every watched host a full skew × poll from the start, then catches only those still silent', () => {
      t.post(fixture('02-status-heartbeat'), T0)
      // The server stopped right after that message and starts again 48 s later.
      const startMs = T0 + 48_000
      watchdog.restartDeadlines(startMs)
      expect(host().heartbeat_deadline_ms).toBe(startMs + 15_000)
      expect(watchdog.check(startMs + 1_000)).toBe(0)
      expect(watchdog.check(startMs + 14_999)).toBe(0)
      expect(heartbeatEvents()).toEqual([])
      // The agent reports again within the deadline: it was never silent.
      t.post(shiftTime(fixture('02-status-heartbeat'), 53), startMs + 5_000)
      expect(watchdog.check(startMs + 15_000)).toBe(0)
      expect(host().heartbeat).toBe(1)
      expect(heartbeatEvents()).toEqual([])
      expect(hostIntervals()).toEqual([])
    })

    it('still declares a host dead that does not report within the fresh deadline', () => {
      t.post(fixture('02-status-heartbeat'), T0)
      const startMs = T0 + 48_000
      watchdog.restartDeadlines(startMs)
      expect(watchdog.check(startMs + 15_000)).toBe(1)
      expect(heartbeatEvents().map((e) => e.state)).toEqual([1])
    })

    it("restarts the deadlines at the job's first pass, then keeps them while it passes every interval", () => {
      t.post(fixture('02-status-heartbeat'), T0)
      const startMs = T0 + 48_000
      expect(watchdog.pass(startMs, 500)).toBe(0)
      expect(host().heartbeat_deadline_ms).toBe(startMs + 15_000)
      let now = startMs
      while (now < startMs + 14_500) expect(watchdog.pass((now += 500), 500)).toBe(0)
      expect(watchdog.pass(startMs + 15_000, 500)).toBe(1)
    })

    it('restarts them after passes stopped for more than four intervals (database out of reach, lease elsewhere, machine asleep)', () => {
      t.post(fixture('02-status-heartbeat'), T0)
      expect(watchdog.pass(T0 + 1_000, 500)).toBe(0)
      expect(watchdog.pass(T0 + 3_000, 500)).toBe(0) // four intervals: still watching
      expect(host().heartbeat_deadline_ms).toBe(T0 + 16_000)
      // No pass from T0 + 3 s until T0 + 40 s, long after the deadline: not the agent's silence.
      expect(watchdog.pass(T0 + 40_000, 500)).toBe(0)
      expect(host().heartbeat_deadline_ms).toBe(T0 + 55_000)
      expect(heartbeatEvents()).toEqual([])
      // Still silent one deadline later: caught.
      let now = T0 + 40_000
      while (now < T0 + 54_500) expect(watchdog.pass((now += 500), 500)).toBe(0)
      expect(watchdog.pass(T0 + 55_000, 500)).toBe(1)
    })

    it('holds its judgement while the collector cannot store, though its own passes work, and restarts the deadlines once it stores again', () => {
      const storage: { unavailable: string | undefined } = { unavailable: undefined }
      const judging = new HeartbeatWatchdog(t.store, undefined, storage)
      t.post(fixture('02-status-heartbeat'), T0)
      let now = T0 + 1_000
      expect(judging.pass(now, 500)).toBe(0)
      // The collector answers 503 (its connection is still out) while this job's statements work: long past the deadline.
      storage.unavailable = 'ECONNREFUSED'
      while (now < T0 + 60_000) expect(judging.pass((now += 500), 500)).toBe(0)
      expect(heartbeatEvents()).toEqual([])
      // Storing again: every host gets a full deadline from then; one still silent is caught one deadline later.
      storage.unavailable = undefined
      expect(judging.pass((now += 500), 500)).toBe(0)
      expect(host().heartbeat_deadline_ms).toBe(now + 15_000)
      const back = now
      while (now < back + 14_500) expect(judging.pass((now += 500), 500)).toBe(0)
      expect(judging.pass(back + 15_000, 500)).toBe(1)
    })

    it('judges again after ten minutes of a collector that cannot store, when its own database answers', () => {
      const judging = new HeartbeatWatchdog(t.store, undefined, { unavailable: 'ENOSPC' })
      t.post(fixture('02-status-heartbeat'), T0)
      let now = T0
      // Held from the first pass (T0 + 0.5 s) for ten minutes; the pass then judges, after a full deadline.
      while (now < T0 + 600_500) expect(judging.pass((now += 500), 500)).toBe(0)
      expect(host().heartbeat_deadline_ms).toBe(T0 + 600_500 + 15_000)
      while (now < T0 + 615_000) expect(judging.pass((now += 500), 500)).toBe(0)
      expect(judging.pass(T0 + 615_500, 500)).toBe(1)
    })

    it("gives every watched host its own poll cycle's and skew's deadline, whatever the mix", () => {
      const cycles = [
        { poll: 5, skew: null, deadline: 15_000 },
        { poll: 30, skew: 2, deadline: 60_000 },
        { poll: 5, skew: 4, deadline: 20_000 },
        { poll: 0, skew: null, deadline: null }
      ]
      const { db, sql } = t.store
      const ids = cycles.map(({ poll, skew }, i) => {
        t.post(asAgent(fixture('02-status-heartbeat'), `${i}`.repeat(32), `host-${i}`), T0)
        const id = hostOfAgent(t.store, `${i}`.repeat(32))!.id
        sql.run(db.updateTable('host').set({ poll, skew }).where('id', '=', id))
        return id
      })
      const startMs = T0 + 48_000
      watchdog.restartDeadlines(startMs)
      const deadlines = ids.map((id) => t.store.hosts.findById(id)!.heartbeat_deadline_ms)
      expect(deadlines).toEqual(cycles.map((c) => (c.deadline === null ? null : startMs + c.deadline)))
    })

    it('leaves hosts it does not watch alone', () => {
      t.post(fixture('05-event-monit-stopped'), T0)
      watchdog.restartDeadlines(T0 + 48_000)
      expect(hostOfAgent(t.store, '39900374079c371b7380946708ce1e29')).toMatchObject({ status: 1, heartbeat_deadline_ms: null })
      expect(watchdog.check(T0 + 3_600_000)).toBe(0)
    })
  })
})
