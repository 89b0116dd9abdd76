// An alert storm end to end (issue 13, "Proof"): 1,000 hosts known to the server fail within 5 seconds
// (longer than the rule's 4 s group wait, so the storm spans groups), each a real Monit payload posted to
// /collector by its own agent id; one rule (made through the admin API)
// routes failures to two webhook channels on 127.0.0.1. Each channel receives a handful of grouped
// messages, not 1,000, and together they list every failure exactly once.
import type { AlertDeliveryList } from '../../src/shared/api/alerts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAlertReceiver, type AlertReceiver } from '../support/alert-receiver'
import { loginAs, type ApiClient } from '../support/api-client'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { captureShiftTo, retimeCapture, withEvent, withoutService, withPoll } from '../support/payloads'
import { waitFor } from '../support/wait'

const HOSTS = 1000
const GROUP_WAIT_SEC = 4
/** Posts in flight at once, as many agents reporting together. */
const CONCURRENCY = 16
/** The failures arrive over this long: more than the group wait, so that they make more than one group. */
const STORM_MS = 5000

/** A group closes a group wait after its first failure: failures posted over `postedMs` make at most this
 *  many messages per channel (5 for the planned 5 s; more when a busy machine stretched the posting). */
const maxMessagesPerChannel = (postedMs: number) => Math.max(5, Math.ceil(postedMs / (GROUP_WAIT_SEC * 1000)) + 2)

let server: TestServer
let admin: ApiClient
let hooks: AlertReceiver[]
const shift = captureShiftTo(Math.floor(Date.now() / 1000))
const agentId = (i: number) => `5f${String(i).padStart(30, '0')}`
const hostname = (i: number) => `storm-${String(i).padStart(4, '0')}`
// A poll long enough that no host goes silent while the test runs, however long registering 1,000 takes:
// only the storm's failures are alerted.
const POLL_SEC = 300
// Each host reports its system and the failing process only: the fixture's nine other services would
// add nothing to the storm but the time to store them (the ingest of whole messages has tests of its own).
const BYSTANDERS = ['labfile', 'labdir', 'rootfs', 'labfifo', 'labprog', 'truecheck', 'lohost', 'deadport', 'loopback']
const stormPayload = (name: string) => Buffer.from(withPoll(BYSTANDERS.reduce(withoutService, fixture(name).toString()), POLL_SEC))
const heartbeat = stormPayload('02-status-heartbeat')
const failure = stormPayload('03-event-process-not-running')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Posts one payload per host, CONCURRENCY at a time, host i not before (i - 1) / HOSTS of `spreadMs`;
 * every one must be acknowledged with 200.
 */
async function postAll(payload: (i: number) => string, spreadMs = 0): Promise<void> {
  let next = 1
  const statuses: number[] = []
  const start = Date.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i <= HOSTS; i = next++) {
        const wait = start + ((i - 1) * spreadMs) / HOSTS - Date.now()
        if (wait > 0) await sleep(wait) // the storm's pace, in real time
        statuses.push((await postCollector(server.baseUrl, payload(i), { auth: 'monit:collect0r' })).status)
      }
    })
  )
  expect(statuses.filter((s) => s !== 200)).toEqual([])
  expect(statuses).toHaveLength(HOSTS)
}

beforeAll(async () => {
  server = await startTestServer()
  hooks = [await startAlertReceiver(), await startAlertReceiver()]
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
})
afterAll(async () => {
  await server?.stopAndClean()
  for (const hook of hooks ?? []) await hook.close()
})

describe('an alert storm', () => {
  it('1,000 hosts registered, then two webhook channels and a rule through the admin API', async () => {
    const t0 = Date.now()
    await postAll((i) => retimeCapture(asAgent(heartbeat, agentId(i), hostname(i)), shift))
    console.log(`storm: ${HOSTS} hosts registered in ${Date.now() - t0} ms`)
    const channels: number[] = []
    for (const [n, hook] of hooks.entries()) {
      const created = await admin.post('/api/2/admin/alerts/channels/create', { type: 'webhook', name: `hook ${n + 1}`, url: hook.url })
      expect(created.status).toBe(200)
      channels.push((created.json as { id: number }).id)
    }
    const rule = await admin.post('/api/2/admin/alerts/rules/create', {
      name: 'every failure',
      channelid: channels,
      state: 1,
      groupwait: GROUP_WAIT_SEC
    })
    expect(rule.status).toBe(200)
  }, 120_000)

  it('1,000 failures within a few seconds: a handful of grouped messages per channel, listing each failure exactly once', async () => {
    const nowSec = Math.floor(Date.now() / 1000)
    const stormAt = Date.now()
    await postAll((i) => withEvent(retimeCapture(asAgent(failure, agentId(i), hostname(i)), shift), { sec: nowSec }), STORM_MS)
    const postedMs = Date.now() - stormAt
    const listed = (hook: AlertReceiver) => hook.received.reduce((n, r) => n + r.body.alerts.length, 0)
    // Each channel has heard of all 1,000 (or more, which the assertions below catch).
    await waitFor(
      'every failure delivered to both channels',
      () => hooks.every((h) => listed(h) >= HOSTS),
      postedMs + GROUP_WAIT_SEC * 1000 + 15_000,
      50
    )
    const lastAt = Math.max(...hooks.flatMap((h) => h.received.map((r) => r.at)))
    await sleep(GROUP_WAIT_SEC * 1000 + 1500) // proves absence: a group wait and a pass (1 s) more, and nothing more comes
    for (const [n, hook] of hooks.entries()) {
      const messages = hook.received
      console.log(
        `storm: channel ${n + 1} got ${messages.length} messages (${messages.map((m) => m.body.alerts.length).join(' + ')} alerts), ` +
          `${HOSTS} failures posted in ${postedMs} ms, last message ${lastAt - stormAt} ms after the first post (group wait ${GROUP_WAIT_SEC} s)`
      )
      expect(messages.length).toBeGreaterThanOrEqual(1)
      expect(messages.length).toBeLessThanOrEqual(maxMessagesPerChannel(postedMs))
      const alerts = messages.flatMap((m) => m.body.alerts)
      expect(alerts).toHaveLength(HOSTS)
      expect(new Set(alerts.map((a) => a.host)).size).toBe(HOSTS)
      expect(new Set(alerts.map((a) => a.hostid)).size).toBe(HOSTS)
      expect(alerts.every((a) => a.service === 'sleeper' && a.state === 'failed' && a.message === 'process is not running')).toBe(true)
      expect(alerts.map((a) => a.host).sort()).toEqual(Array.from({ length: HOSTS }, (_, k) => hostname(k + 1)))
      for (const m of messages) {
        const hosts = m.body.alerts.length
        expect(m.body.summary).toBe(
          hosts === 1 ? `sleeper failed on ${m.body.alerts[0].host}` : `${hosts} services failed on ${hosts} hosts`
        )
        expect(m.idHeader).toBe(m.body.id)
        expect(m.answer).toBe(200)
      }
      expect(new Set(messages.map((m) => m.body.id)).size).toBe(messages.length)
    }
    // The two channels' messages are their own (ids differ), about the same failures.
    expect(new Set(hooks.flatMap((h) => h.received.map((m) => m.body.id))).size).toBe(hooks[0].received.length + hooks[1].received.length)
    // The delivery log says the same: one delivered notification per message, each at the first attempt.
    const log = (await admin.get('/api/2/admin/alerts/deliveries/list', { results: 100 })).json as AlertDeliveryList
    expect(log.records.map((r) => [r.uid, r.status, r.attempts]).sort()).toEqual(
      hooks.flatMap((h) => h.received.map((m) => [m.body.id, 'delivered', 1])).sort()
    )
  }, 120_000)
})
