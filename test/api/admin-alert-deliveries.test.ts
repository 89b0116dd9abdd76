// admin/alerts/deliveries/list over real HTTP: the delivery log with its filters and paging. The rows
// are written into the server's database as the delivery job and the matching write them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertDeliveryList } from '../../src/shared/api/alerts'
import { loginAs, type ApiClient } from '../support/api-client'
import { addChannel, addRule } from '../support/alert-config'
import { addEvent, addHost, addOutbox, item } from '../support/alert-rows'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { addUser } from '../support/users'

let server: TestServer
let admin: ApiClient
// Recent, so that the running server's pruning leaves them; a pending one is due far later.
const base = Math.floor(Date.now() / 1000) - 10_000
const ids: Record<string, number> = {}
let chOps: number
let chPager: number
let ruleWeb: number
let ruleDb: number
const eventsOf: Record<string, number[]> = {}

beforeAll(async () => {
  server = await startTestServer()
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
  const db = server.store.sql.plain
  chOps = addChannel(db, { name: 'ops', settings: { url: 'http://127.0.0.1:9/a' } })
  chPager = addChannel(db, { name: 'pager', settings: { url: 'http://127.0.0.1:9/b' } })
  ruleWeb = addRule(db, { name: 'web', channelIds: [chOps, chPager] })
  ruleDb = addRule(db, { name: 'db', channelIds: [chOps] })
  const host = addHost(db, 'web-1')
  const notify = (
    uid: string,
    channel: number,
    rules: number[],
    status: string,
    at: number,
    extra: { error?: string; log?: string; attempts?: number } = {}
  ) => {
    const id = Number(
      (
        db
          .prepare(
            `INSERT INTO alert_notification (uid, channel_id, created_at, status, attempts, next_attempt_at, last_error, delivered_at,
      summary, link, alert_count, log) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
          )
          .get(
            uid,
            channel,
            at,
            status,
            extra.attempts ?? 1,
            status === 'pending' ? base + 10 ** 8 : null,
            extra.error ?? null,
            status === 'delivered' ? at + 1 : null,
            `summary ${uid}`,
            'http://x/#/events',
            rules.length,
            extra.log ?? null
          ) as { id: number }
      ).id
    )
    eventsOf[uid] = rules.map((rule, i) => {
      const event = addEvent(db, host, `${uid}-service-${i}`, at)
      const row = addOutbox(db, {
        channelId: channel,
        ruleId: rule,
        eventId: event,
        item: item(host, 'web-1', 'nginx', event),
        createdAt: at
      })
      db.prepare('UPDATE alert_outbox SET notification_id = ? WHERE id = ?').run(id, row)
      return event
    })
    ids[uid] = id
  }
  notify('n1', chOps, [ruleWeb], 'delivered', base + 100, { log: '200 ok' })
  notify('n2', chPager, [ruleWeb], 'failed', base + 200, { error: 'HTTP 500: nope', attempts: 10 })
  notify('n3', chOps, [ruleWeb, ruleDb], 'delivered', base + 300)
  notify('n4', chOps, [ruleDb], 'pending', base + 400, { error: 'no answer within 30 s', attempts: 2 })
})

afterAll(async () => {
  await server?.stopAndClean()
})

async function list(params: Record<string, string | number> = {}): Promise<AlertDeliveryList> {
  const res = await admin.get('/api/2/admin/alerts/deliveries/list', params)
  expect(res.status, res.text).toBe(200)
  return res.json as AlertDeliveryList
}

const uids = (l: AlertDeliveryList) => l.records.map((r) => r.uid)

describe('admin/alerts/deliveries/list', () => {
  it('lists every notification newest first with channel, rules, attempts, status, error, log and dates', async () => {
    const all = await list()
    expect(uids(all)).toEqual(['n4', 'n3', 'n2', 'n1'])
    expect(all).toMatchObject({ totalRecords: 4, recordsReturned: 4, startIndex: 0, pageSize: 100 })
    expect(all.records.find((r) => r.uid === 'n3')).toMatchObject({
      id: ids.n3,
      channel: { id: chOps, name: 'ops', type: 'webhook' },
      rules: [
        { id: ruleWeb, name: 'web' },
        { id: ruleDb, name: 'db' }
      ],
      events: eventsOf.n3,
      kinds: ['alert'],
      summary: 'summary n3',
      alerts: 2,
      status: 'delivered',
      attempts: 1,
      createdat: base + 300,
      deliveredat: base + 301,
      nextattemptat: null
    })
    expect(all.records.find((r) => r.uid === 'n2')).toMatchObject({
      status: 'failed',
      attempts: 10,
      lasterror: 'HTTP 500: nope',
      deliveredat: null
    })
    expect(all.records.find((r) => r.uid === 'n1')).toMatchObject({ log: '200 ok' })
    expect(all.records.find((r) => r.uid === 'n4')).toMatchObject({
      status: 'pending',
      nextattemptat: base + 10 ** 8,
      lasterror: 'no answer within 30 s'
    })
  })

  it('filters by channel, rule, status and dates', async () => {
    expect(uids(await list({ channelid: chPager }))).toEqual(['n2'])
    expect(uids(await list({ ruleid: ruleDb }))).toEqual(['n4', 'n3'])
    expect(uids(await list({ status: 'delivered' }))).toEqual(['n3', 'n1'])
    expect(uids(await list({ datefrom: base + 200, dateto: base + 300 }))).toEqual(['n3', 'n2'])
    expect(uids(await list({ channelid: chOps, status: 'delivered', ruleid: ruleWeb }))).toEqual(['n3', 'n1'])
  })

  it('pages with results and startindex; past the end is an empty page', async () => {
    const page = await list({ results: 2, startindex: 1 })
    expect(uids(page)).toEqual(['n3', 'n2'])
    expect(page).toMatchObject({ totalRecords: 4, recordsReturned: 2, pageSize: 2, startIndex: 1 })
    expect(await list({ startindex: 10 })).toMatchObject({ records: [], totalRecords: 4, recordsReturned: 0 })
  })

  it('answers 400 for a bad argument and 403 to a user who is not an administrator', async () => {
    const bad = await admin.get('/api/2/admin/alerts/deliveries/list', { status: 'lost' })
    expect(bad.status).toBe(400)
    expect((bad.json as { error: string }).error).toMatch(/status/)
    addUser(server.store, { uname: 'viewer', password: 'viewerpw', roleIds: [3] })
    const viewer = await loginAs(server.baseUrl, 'viewer', 'viewerpw')
    expect((await viewer.get('/api/2/admin/alerts/deliveries/list')).status).toBe(403)
  })
})
