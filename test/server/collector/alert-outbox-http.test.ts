// Alert outbox rows over real HTTP (issue 13): the real server on 127.0.0.1, fixture payloads posted
// to /collector (stored by the ingest thread, its own connection), the heartbeat watchdog on
// the main thread (another connection); the configuration written with plain SQL through a third.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServiceEntry } from '../../../src/shared/api/status'
import { DATABASE_FILE } from '../../../src/server/server'
import type { PlainSql } from '../../../src/server/store/sql'
import { Store } from '../../../src/server/store/store'
import { addChannel, addMute, addRule, outboxRows } from '../../support/alert-config'
import { loginAs } from '../../support/api-client'
import { asAgent, fixture } from '../../support/fixtures'
import { startTestServer, type TestServer } from '../../support/in-process-server'
import { captureShiftTo, retimeCapture, withEvent } from '../../support/payloads'
import { storeLocation } from '../../support/test-database'
import { waitFor } from '../../support/wait'

let server: TestServer
let config: Store
let db: PlainSql
const shift = captureShiftTo(Math.floor(Date.now() / 1000))
const agentId = (i: number) => `d0${String(i).padStart(30, '0')}`
const payload = (name: string, i: number) => retimeCapture(asAgent(fixture(name), agentId(i), `web-${i}`), shift)
const post = (xml: string) => server.collect(xml)
const hostId = (i: number) => (db.prepare('SELECT id FROM host WHERE agent_id = ?').get(agentId(i)) as { id: number }).id
const rowsOf = (i: number) => outboxRows(db).filter((r) => r.item.hostid === hostId(i))

beforeAll(async () => {
  server = await startTestServer()
  config = new Store(storeLocation(server.dataDir, DATABASE_FILE))
  db = config.sql.plain
})
afterAll(async () => {
  config.close()
  await server.stopAndClean()
})

describe('alert outbox over HTTP', () => {
  let c1: number, c2: number, all: number, sleepers: number

  beforeAll(async () => {
    c1 = addChannel(db)
    c2 = addChannel(db)
    all = addRule(db, { channelIds: [c1, c2] })
    sleepers = addRule(db, { channelIds: [c2], servicePattern: 'sleep*' })
    addRule(db, { channelIds: [c1], servicePattern: 'nothing-like-it' })
  })

  it('a failure enqueues one row per matching rule × channel; the same event posted again nothing more', async () => {
    await post(payload('02-status-heartbeat', 1))
    await post(payload('03-event-process-not-running', 1))
    const rows = rowsOf(1)
    expect(rows.map((r) => [r.rule_id, r.channel_id, r.kind])).toEqual([
      [all, c1, 'alert'],
      [all, c2, 'alert'],
      [sleepers, c2, 'alert']
    ])
    // The service id is the one status/hosts/get gives.
    const admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    const detail = (await admin.get('/status/hosts/get', { id: hostId(1) })).json as { records: { host: { services: ServiceEntry[] } } }
    const sleeper = detail.records.host.services.find((s) => s.name === 'sleeper')!
    expect(rows[0].item).toMatchObject({
      hostid: hostId(1),
      host: 'web-1',
      serviceid: sleeper.id,
      service: 'sleeper',
      state: 'failed',
      event: 'Nonexist'
    })

    await post(payload('03-event-process-not-running', 1))
    expect(rowsOf(1)).toHaveLength(3)
  })

  it('a muted host and a muted service: nothing', async () => {
    await post(payload('02-status-heartbeat', 2))
    await post(payload('02-status-heartbeat', 3))
    const farFuture = Math.floor(Date.now() / 1000) + 3600
    addMute(db, hostId(2), farFuture)
    addMute(db, hostId(3), farFuture, 'sleeper')
    await post(payload('03-event-process-not-running', 2))
    await post(payload('03-event-process-not-running', 3))
    await post(payload('12-event-program-status-failed', 3))
    expect(rowsOf(2)).toEqual([])
    expect(rowsOf(3).map((r) => r.item.service)).toEqual(['labprog', 'labprog'])
  })

  it('a dead heartbeat: its alert from the watchdog, nothing for its services meanwhile, a recovery when it reports again', async () => {
    // One-second poll: the watchdog declares it silent 3 s (skew 3) after its last message.
    const quick = (xml: string) => xml.replace('<poll>5</poll>', '<poll>1</poll>')
    await post(quick(payload('02-status-heartbeat', 4)))
    const lost = await waitFor('the heartbeat alert', () => rowsOf(4).length > 0 && rowsOf(4), 15_000)
    expect(lost.map((r) => [r.rule_id, r.kind, r.item.service, r.item.event, r.item.state, r.item.serviceid])).toEqual([
      [all, 'alert', 'Monit', 'Heartbeat', 'failed', null],
      [all, 'alert', 'Monit', 'Heartbeat', 'failed', null]
    ])
    // The agent comes back with a failure from its silent time.
    await post(quick(withEvent(payload('03-event-process-not-running', 4), { sec: Math.floor(Date.now() / 1000) - 1 })))
    expect(
      rowsOf(4)
        .slice(2)
        .map((r) => [r.kind, r.item.service, r.item.state])
    ).toEqual([
      ['recovery', 'Monit', 'succeeded'],
      ['recovery', 'Monit', 'succeeded']
    ])
  })
})
