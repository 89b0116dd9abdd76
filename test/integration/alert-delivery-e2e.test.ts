// Alerting end to end in the real server on 127.0.0.1 (issue 13): a channel and a rule created through
// the admin API, real Monit payloads posted to /collector, the matching's outbox rows, the delivery job
// on its own timer, a webhook receiver. Two hosts failing within the group wait make one notification;
// a recovery makes one more; the delivery log lists both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertDeliveryList } from '../../src/shared/api/alerts'
import { startAlertReceiver, type AlertReceiver } from '../support/alert-receiver'
import { loginAs, type ApiClient } from '../support/api-client'
import { asAgent, fixture } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { captureShiftTo, retimeCapture, withEvent } from '../support/payloads'
import { waitFor } from '../support/wait'

const GROUP_WAIT_SEC = 2
/** The delivery job's pass. */
const PASS_MS = 1000
let server: TestServer
let admin: ApiClient
let hook: AlertReceiver
const shift = captureShiftTo(Math.floor(Date.now() / 1000))
const agentId = (i: number) => `e0${String(i).padStart(30, '0')}`
const payload = (name: string, i: number) => retimeCapture(asAgent(fixture(name), agentId(i), `web-${i}`), shift)
const post = (xml: string) => server.collect(xml)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

beforeAll(async () => {
  server = await startTestServer()
  hook = await startAlertReceiver()
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
})
afterAll(async () => {
  await server?.stopAndClean()
  await hook?.close()
})

describe('alerting end to end', () => {
  let channel: number
  let rule: number

  it('groups two hosts failing within the group wait into one notification, then tells of a recovery once', async () => {
    channel = (
      (await admin.post('/api/2/admin/alerts/channels/create', { type: 'webhook', name: 'ops', url: hook.url })).json as { id: number }
    ).id
    rule = (
      (await admin.post('/api/2/admin/alerts/rules/create', { name: 'all', channelid: channel, groupwait: GROUP_WAIT_SEC })).json as {
        id: number
      }
    ).id
    await post(payload('02-status-heartbeat', 1))
    await post(payload('02-status-heartbeat', 2))

    const failedAt = Date.now()
    await post(payload('03-event-process-not-running', 1))
    await post(payload('03-event-process-not-running', 2))
    await waitFor('the grouped notification', () => hook.received.length === 1, 10_000, 20)
    const latencyMs = hook.received[0].at - failedAt
    await sleep(1.5 * PASS_MS) // proves absence: a pass or two more, and nothing else arrives
    expect(hook.received).toHaveLength(1)
    const [grouped] = hook.received
    expect(grouped.body.summary).toBe('2 services failed on 2 hosts')
    expect(grouped.body.alerts.map((a) => [a.host, a.service, a.state])).toEqual([
      ['web-1', 'sleeper', 'failed'],
      ['web-2', 'sleeper', 'failed']
    ])
    expect(grouped.body.alerts[0].link).toMatch(new RegExp(`^${server.baseUrl}/#/events/\\d+$`))
    expect(grouped.idHeader).toBe(grouped.body.id)

    const recoveredAt = Date.now()
    await post(
      withEvent(payload('03-event-process-not-running', 1), { sec: Math.floor(Date.now() / 1000), state: 0, message: 'process is running' })
    )
    await waitFor('the recovery', () => hook.received.length === 2, 10_000, 20)
    const recoveryMs = hook.received[1].at - recoveredAt
    await sleep(1.5 * PASS_MS) // proves absence, as above
    expect(hook.received).toHaveLength(2)
    expect(hook.received[1].body.summary).toBe('sleeper recovered on web-1')
    console.log(`end to end: failure to webhook ${latencyMs} ms, recovery ${recoveryMs} ms (group wait ${GROUP_WAIT_SEC} s, job every 1 s)`)
    expect(latencyMs).toBeGreaterThanOrEqual(GROUP_WAIT_SEC * 1000 - 1000)
  })

  it('lists both in the delivery log, delivered, with the channel, the rule and the events', async () => {
    const log = (await admin.get('/api/2/admin/alerts/deliveries/list', { channelid: channel })).json as AlertDeliveryList
    expect(
      log.records.map((r) => [r.summary, r.status, r.attempts, r.channel.name, r.rules.map((x) => x.id), r.events.length, r.kinds])
    ).toEqual([
      ['sleeper recovered on web-1', 'delivered', 1, 'ops', [rule], 1, ['recovery']],
      ['2 services failed on 2 hosts', 'delivered', 1, 'ops', [rule], 2, ['alert']]
    ])
    expect(log.records.map((r) => r.uid)).toEqual([hook.received[1].body.id, hook.received[0].body.id])
  })
})
