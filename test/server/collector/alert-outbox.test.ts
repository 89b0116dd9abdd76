// Alert outbox rows written where events are recorded (issue 13): real SQLite files, real payloads,
// the collector's ingest and the heartbeat watchdog; rules written with plain SQL, as the admin API
// will, sometimes through another connection, as the admin API does from the main thread.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { collectMessages, type CollectRequest } from '../../../src/server/collector/collect-message'
import type { Principal } from '../../../src/server/domain/permissions'
import { HeartbeatWatchdog } from '../../../src/server/jobs/heartbeat-watchdog'
import { addChannel, addMute, addRule, outboxRows } from '../../support/alert-config'
import { asAgent, fixture } from '../../support/fixtures'
import { captureShiftTo, retimeCapture, withEvent, withHostGroups } from '../../support/payloads'
import { Store } from '../../../src/server/store/store'
import type { PlainSql } from '../../../src/server/store/sql'
import { refuseHostUpdate } from '../../support/refused-host-update'
import { tempStore, type TempStore } from '../../support/temp-store'

const AGENT = 'a1000000000000000000000000000001'
const HOSTNAME = 'web-1'

let t: TempStore
let db: PlainSql
const nowMs = Date.now()
const nowSec = Math.floor(nowMs / 1000)
const shift = captureShiftTo(nowSec)
/** A fixture as agent AGENT, re-timed into the hour before now. */
const payload = (name: string, agent = AGENT, hostname = HOSTNAME) => retimeCapture(asAgent(fixture(name), agent, hostname), shift)
const failureSec = 1795300276 + shift
const sleeperFailure = () => payload('03-event-process-not-running')
const sleeperEvent = (e: Parameters<typeof withEvent>[1]) => withEvent(sleeperFailure(), e)
const hostId = () => (db.prepare('SELECT id FROM host WHERE agent_id = ?').get(AGENT) as { id: number }).id
const serviceId = (name: string) =>
  (db.prepare('SELECT id FROM service WHERE host_id = ? AND name = ?').get(hostId(), name) as { id: number }).id
const eventIds = () => (db.prepare('SELECT id FROM event ORDER BY id').all() as { id: number }[]).map((e) => e.id)
const summary = () => outboxRows(db).map((r) => [r.rule_id, r.channel_id, r.kind, r.item.service, r.item.state])

beforeEach(() => {
  t = tempStore()
  db = t.store.sql.plain
  t.post(payload('02-status-heartbeat'), nowMs)
})
afterEach(() => t.close())

describe('alert outbox: rows per matching rule and channel', () => {
  it('no rule: events are stored and nothing is enqueued', () => {
    t.post(sleeperFailure(), nowMs)
    expect(eventIds()).toHaveLength(1)
    expect(outboxRows(db)).toEqual([])
  })

  it('a failure enqueues one row per matching enabled rule × enabled channel, with the event frozen in it', () => {
    const c1 = addChannel(db)
    const c2 = addChannel(db)
    const off = addChannel(db, { enabled: false })
    const all = addRule(db, { channelIds: [c1, c2, off] })
    const sleepers = addRule(db, { channelIds: [c1], servicePattern: 'sleep*', groupWaitSec: 60 })
    addRule(db, { channelIds: [c1], enabled: false })
    addRule(db, { channelIds: [off] })
    addRule(db, { channelIds: [c2], servicePattern: 'apache' })
    addRule(db, { channelIds: [c2], states: 2 })
    const other = t.post(payload('02-status-heartbeat', 'a1000000000000000000000000000002', 'web-2'), nowMs).hostId
    addRule(db, { channelIds: [c2], hostIds: [other] })

    const before = Math.floor(Date.now() / 1000)
    t.post(sleeperFailure(), nowMs)
    const rows = outboxRows(db)
    expect(rows.map((r) => [r.rule_id, r.channel_id, r.kind])).toEqual([
      [all, c1, 'alert'],
      [all, c2, 'alert'],
      [sleepers, c1, 'alert']
    ])
    const [eventId] = eventIds()
    expect(rows[0].item).toEqual({
      hostid: hostId(),
      host: HOSTNAME,
      serviceid: serviceId('sleeper'),
      service: 'sleeper',
      servicetype: 3,
      event: 'Nonexist',
      state: 'failed',
      message: 'process is not running',
      date: failureSec,
      link: `#/events/${eventId}`
    })
    for (const r of rows) {
      expect(r.event_id).toBe(eventId)
      expect(r.created_at).toBeGreaterThanOrEqual(before)
      expect(r.created_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000))
      expect(r.due_at).toBe(r.created_at + (r.rule_id === sleepers ? 60 : 30))
    }
  })

  it('a replayed event, and a re-send after the agent restarted, enqueue nothing more', () => {
    addRule(db, { channelIds: [addChannel(db)] })
    t.post(sleeperFailure(), nowMs)
    t.post(sleeperFailure(), nowMs + 1000)
    expect(eventIds()).toHaveLength(1)
    expect(outboxRows(db)).toHaveLength(1)
  })

  it('a recovery is enqueued by rules with recovery on; a late failure older than it enqueues nothing', () => {
    const c = addChannel(db)
    const withRecovery = addRule(db, { channelIds: [c] })
    addRule(db, { channelIds: [c], recovery: false })
    t.post(sleeperFailure(), nowMs)
    t.post(sleeperEvent({ sec: failureSec + 10, state: 0, message: 'process is running' }), nowMs)
    expect(summary().slice(2)).toEqual([[withRecovery, c, 'recovery', 'sleeper', 'succeeded']])
    // An older failure arriving after the recovery (a queue replayed out of order) is stored, pages no one.
    t.post(sleeperEvent({ sec: failureSec + 5 }), nowMs)
    expect(eventIds()).toHaveLength(3)
    expect(outboxRows(db)).toHaveLength(3)
  })

  it('a configuration written through another connection is used from the next event on', () => {
    t.post(sleeperFailure(), nowMs)
    expect(outboxRows(db)).toEqual([])
    const other = new Store(t.store.location)
    const admin = other.sql.plain
    try {
      const c = addChannel(admin)
      const rule = addRule(admin, { channelIds: [c] })
      t.post(sleeperEvent({ sec: failureSec + 10, state: 0 }), nowMs)
      expect(summary()).toEqual([[rule, c, 'recovery', 'sleeper', 'succeeded']])
      admin.prepare('UPDATE alert_channel SET enabled = 0').run()
      t.post(sleeperEvent({ sec: failureSec + 20 }), nowMs)
      expect(outboxRows(db)).toHaveLength(1)
      admin.prepare('UPDATE alert_channel SET enabled = 1').run()
      admin.prepare('INSERT INTO alert_rule_service_type (rule_id, service_type) VALUES (?, 0)').run(rule)
      t.post(sleeperEvent({ sec: failureSec + 30, state: 0 }), nowMs)
      expect(outboxRows(db)).toHaveLength(1) // sleeper is a process, the rule now wants filesystems
      admin.prepare('DELETE FROM alert_rule_service_type').run()
      t.post(sleeperEvent({ sec: failureSec + 40 }), nowMs)
      expect(summary()[1]).toEqual([rule, c, 'alert', 'sleeper', 'failed'])
    } finally {
      other.close()
    }
  })

  it('reads the rule set once per configuration change, not per event', () => {
    const c = addChannel(db)
    addRule(db, { channelIds: [c] })
    const reads = vi.spyOn(t.store.alertMatching, 'configRows')
    for (let i = 0; i < 4; i++) t.post(sleeperEvent({ sec: failureSec + i, state: i % 2 }), nowMs)
    expect(outboxRows(db)).toHaveLength(4)
    expect(reads).toHaveBeenCalledTimes(1)
    addMute(db, hostId(), failureSec + 1000, 'labprog')
    for (let i = 4; i < 6; i++) t.post(sleeperEvent({ sec: failureSec + i, state: i % 2 }), nowMs)
    expect(outboxRows(db)).toHaveLength(6)
    expect(reads).toHaveBeenCalledTimes(2)
  })

  it('rules for a host group follow its membership', () => {
    const c = addChannel(db)
    const group = Number((db.prepare(`INSERT INTO host_group (name) VALUES ('web') RETURNING id`).get() as { id: number }).id)
    addRule(db, { channelIds: [c], groupIds: [group] })
    t.post(sleeperFailure(), nowMs)
    expect(outboxRows(db)).toEqual([])
    db.prepare('INSERT INTO host_group_member (group_id, host_id) VALUES (?, ?)').run(group, hostId())
    t.post(sleeperEvent({ sec: failureSec + 10, state: 0 }), nowMs)
    expect(summary()).toEqual([[expect.any(Number), c, 'recovery', 'sleeper', 'succeeded']])
  })
})

describe('alert outbox: a batch of messages in one transaction', () => {
  const principal: Principal = { userId: 2, uname: 'monit', admin: false, everyHost: 1, perHost: new Map() }
  const request = (xml: string): CollectRequest => ({ xml: Buffer.from(xml, 'latin1'), principal, nowMs })
  const failureOf = (agent: string, hostname: string) => payload('03-event-process-not-running', agent, hostname)

  it("reads the configuration's generation once, not per event (a round trip each on PostgreSQL)", () => {
    addRule(db, { channelIds: [addChannel(db)] })
    const reads = vi.spyOn(t.store.alertMatching, 'generation')
    const outcomes = collectMessages(t.ingest, [
      request(failureOf('c0000000000000000000000000000001', 'one')),
      request(failureOf('c0000000000000000000000000000002', 'two')),
      request(failureOf('c0000000000000000000000000000003', 'three'))
    ])
    expect(outcomes.map((o) => o.kind)).toEqual(['stored', 'stored', 'stored'])
    expect(outboxRows(db)).toHaveLength(3)
    expect(reads).toHaveBeenCalledTimes(1)
  })

  it("an agent joining a host group in the batch: its event follows that group's rules at once", () => {
    const c = addChannel(db)
    const group = Number((db.prepare(`INSERT INTO host_group (name) VALUES ('web') RETURNING id`).get() as { id: number }).id)
    const rule = addRule(db, { channelIds: [c], groupIds: [group] })
    // The first message's event reads the rules before the second's agent is a member of `web`.
    const outcomes = collectMessages(t.ingest, [
      request(failureOf('c0000000000000000000000000000001', 'outside')),
      request(withHostGroups(failureOf('c0000000000000000000000000000002', 'joining'), ['web']))
    ])
    expect(outcomes.map((o) => o.kind)).toEqual(['stored', 'stored'])
    expect(outboxRows(db).map((r) => [r.rule_id, r.item.host])).toEqual([[rule, 'joining']])
  })
})

describe('alert outbox: what pages no one', () => {
  let c: number
  beforeEach(() => {
    c = addChannel(db)
    addRule(db, { channelIds: [c] })
  })

  it('a muted host: nothing until the mute ends', () => {
    addMute(db, hostId(), failureSec + 10)
    t.post(sleeperFailure(), nowMs)
    t.post(sleeperEvent({ sec: failureSec + 5, state: 0 }), nowMs)
    expect(outboxRows(db)).toEqual([])
    t.post(sleeperEvent({ sec: failureSec + 10 }), nowMs)
    expect(summary()).toEqual([[expect.any(Number), c, 'alert', 'sleeper', 'failed']])
  })

  it("a muted service: nothing for it, its host's other services alert", () => {
    addMute(db, hostId(), nowSec + 3600, 'sleeper')
    t.post(sleeperFailure(), nowMs)
    t.post(payload('12-event-program-status-failed'), nowMs)
    expect(summary()).toEqual([[expect.any(Number), c, 'alert', 'labprog', 'failed']])
  })

  it('an ignored host: nothing', () => {
    db.prepare('UPDATE host SET status = 2').run()
    t.post(sleeperFailure(), nowMs)
    expect(outboxRows(db)).toEqual([])
  })

  it('a dead heartbeat: one "stopped reporting", its services\' events of that time nothing, "reports again" one recovery', () => {
    const watchdog = new HeartbeatWatchdog(t.store)
    expect(watchdog.check(nowMs + 60_000)).toBe(1)
    expect(summary()).toEqual([[expect.any(Number), c, 'alert', 'Monit', 'failed']])
    expect(outboxRows(db)[0].item).toMatchObject({ serviceid: null, event: 'Heartbeat', date: nowSec + 60 })
    // The message that revives the host, with a failure of the silent time, and one more replayed from the queue.
    t.post(sleeperEvent({ sec: nowSec + 30 }), nowMs + 90_000)
    t.post(withEvent(payload('12-event-program-status-failed'), { sec: nowSec + 40 }), nowMs + 91_000)
    expect(summary().slice(1)).toEqual([[expect.any(Number), c, 'recovery', 'Monit', 'succeeded']])
    // After the silence, failures alert again.
    t.post(sleeperEvent({ sec: nowSec + 100, state: 0 }), nowMs + 100_000)
    t.post(sleeperEvent({ sec: nowSec + 110 }), nowMs + 110_000)
    expect(summary().slice(2)).toEqual([
      [expect.any(Number), c, 'recovery', 'sleeper', 'succeeded'],
      [expect.any(Number), c, 'alert', 'sleeper', 'failed']
    ])
  })
})

describe("alert outbox: in the event's transaction", () => {
  it('a message rolled back leaves no outbox row; the others of its batch have theirs, once', () => {
    addRule(db, { channelIds: [addChannel(db)] })
    // A fault after the event and its outbox rows were written: the host row's update comes last.
    refuseHostUpdate(t.store, 'boom', 'boom is refused by a test trigger')
    const principal: Principal = { userId: 2, uname: 'monit', admin: false, everyHost: 1, perHost: new Map() }
    const request = (agent: string, hostname: string): CollectRequest => ({
      xml: Buffer.from(payload('03-event-process-not-running', agent, hostname)),
      principal,
      nowMs
    })
    const outcomes = collectMessages(t.ingest, [
      request('b0000000000000000000000000000001', 'before'),
      request('b0000000000000000000000000000002', 'boom'),
      request('b0000000000000000000000000000003', 'after')
    ])
    expect(outcomes.map((o) => o.kind)).toEqual(['stored', 'failed', 'stored'])
    expect(
      outboxRows(db)
        .map((r) => r.item.host)
        .sort()
    ).toEqual(['after', 'before'])
    expect(outboxRows(db).map((r) => r.event_id)).toEqual(eventIds())
  })
})
