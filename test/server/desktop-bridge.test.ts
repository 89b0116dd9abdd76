// The desktop bridge over a real store, collector ingest, change feed and heartbeat watchdog.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Ingest } from '../../src/server/collector/ingest'
import { parseMonitMessage } from '../../src/server/monit/parse-message'
import { startDesktopBridge, type ParentChannel } from '../../src/server/desktop-bridge'
import { HeartbeatWatchdog } from '../../src/server/jobs/heartbeat-watchdog'
import { ChangeFeed } from '../../src/server/live/change-feed'
import { EventClassId } from '../../src/shared/codes'
import type { ServerToShellMessage } from '../../src/shared/desktop-api'
import { fixture } from '../support/fixtures'
import { tempStore, type TempStore } from '../support/temp-store'
import { addUser } from '../support/users'
import { hostOfAgent } from '../support/hosts'

const T0 = 1795300500_000 // fixture 02 reports poll 5 s: its heartbeat is dead 15 s later
let t: TempStore
let feed: ChangeFeed
let ingest: Ingest
let sent: ServerToShellMessage[]
const parent: ParentChannel = {
  send: async (message) => void sent.push(message),
  onStopRequest: () => {}
}
const post = (name: string, nowMs = T0) => ingest.apply(parseMonitMessage(fixture(name)), nowMs)
const zero = { red: 0, orange: 0, green: 0, gray: 0 }
const storedEvents = () =>
  t.store.sql.plain.prepare('SELECT id, class, state FROM event ORDER BY id').all() as { id: number; class: number; state: number }[]

beforeEach(() => {
  t = tempStore()
  feed = new ChangeFeed()
  ingest = new Ingest(t.store, t.secrets, feed)
  sent = []
})
afterEach(() => t.close())

describe('desktop bridge', () => {
  it('starts with the first-run state and the LED counts', () => {
    startDesktopBridge(t.store, feed, parent)
    expect(sent).toEqual([
      { type: 'setup', needed: true },
      { type: 'hosts', leds: zero }
    ])
  })

  it('sends LED counts when they change, and only then', () => {
    startDesktopBridge(t.store, feed, parent)
    sent = []
    post('02-status-heartbeat')
    expect(sent).toEqual([{ type: 'hosts', leds: { ...zero, orange: 1 } }])
    post('02-status-heartbeat', T0 + 5_000) // same state again: nothing to tell
    expect(sent).toHaveLength(1)
  })

  it('forwards failed events as alerts with their stored id, not successes or changes', () => {
    startDesktopBridge(t.store, feed, parent)
    post('02-status-heartbeat')
    post('01-event-monit-started')
    post('11-event-checksum-changed')
    sent = []
    post('03-event-process-not-running')
    const failed = storedEvents().filter((e) => e.state === 1)
    expect(failed).toHaveLength(1)
    const alerts = sent.filter((m) => m.type === 'alert')
    expect(alerts).toEqual([
      {
        type: 'alert',
        alert: expect.objectContaining({ kind: 'error', eventId: failed[0].id, hostname: expect.any(String), service: expect.any(String) })
      }
    ])
  })

  it('leaves failed events to the rules once an enabled desktop channel exists', () => {
    startDesktopBridge(t.store, feed, parent)
    post('02-status-heartbeat')
    const channel = (
      t.store.sql.plain
        .prepare(
          `INSERT INTO alert_channel (name, type, enabled, settings, created_at)
      VALUES ('this desk', 'desktop', 1, '{}', 0) RETURNING id`
        )
        .get() as { id: number }
    ).id
    sent = []
    post('03-event-process-not-running')
    expect(sent.filter((m) => m.type === 'alert')).toEqual([])
    t.store.sql.plain.prepare('UPDATE alert_channel SET enabled = 0 WHERE id = ?').run(channel)
    post('12-event-program-status-failed')
    expect(sent.filter((m) => m.type === 'alert')).toHaveLength(1)
  })

  it('reports a host going silent as host-dead, opening the heartbeat event, and its LED turning red', () => {
    startDesktopBridge(t.store, feed, parent)
    post('02-status-heartbeat')
    sent = []
    expect(new HeartbeatWatchdog(t.store, feed).check(T0 + 15_000)).toBe(1)
    const heartbeat = storedEvents().find((e) => e.class === EventClassId.Heartbeat)!
    expect(sent).toEqual([
      { type: 'hosts', leds: { ...zero, red: 1 } },
      {
        type: 'alert',
        alert: expect.objectContaining({ kind: 'host-dead', eventId: heartbeat.id, message: 'No report from Monit for 15 seconds' })
      }
    ])
  })

  it('counts hosts already stored when it starts, forgets removed ones, and stops on unsubscribe', () => {
    post('02-status-heartbeat')
    addUser(t.store, { uname: 'admin', password: 'secret-password', roleIds: [] })
    const stop = startDesktopBridge(t.store, feed, parent)
    expect(sent).toEqual([
      { type: 'setup', needed: false },
      { type: 'hosts', leds: { ...zero, orange: 1 } }
    ])
    const hostId = hostOfAgent(t.store, '39900374079c371b7380946708ce1e29')!.id
    feed.publish({ kind: 'host-removed', hostId })
    expect(sent.at(-1)).toEqual({ type: 'hosts', leds: zero })
    stop()
    sent = []
    post('03-event-process-not-running')
    expect(sent).toEqual([])
  })
})
