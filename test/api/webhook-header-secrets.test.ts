// A webhook's extra headers carry tokens ("Authorization: Bearer …"): their values are sealed at rest
// and never answered by the API, which shows each header's name with a hidden value; a line sent back
// that way keeps the stored value, and the receiver gets the real one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HIDDEN_HEADER_VALUE } from '../../src/shared/alert-channel-settings/webhook'
import type { AlertChannelRecord } from '../../src/shared/api/alerts'
import type { ApiClient } from '../support/api-client'
import { startReceiver, type Receiver } from '../support/http-receiver'
import { startTestServer, type TestServer } from '../support/in-process-server'

const TOKEN = 'Bearer tok-4f1d9c'
let server: TestServer
let admin: ApiClient
let receiver: Receiver

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.loginAsAdmin()
  receiver = await startReceiver()
})

afterAll(async () => {
  await receiver?.close()
  await server?.stopAndClean()
})

const get = async (id: number) => (await admin.get('/api/2/admin/alerts/channels/get', { id })).json as AlertChannelRecord
const stored = (id: number) =>
  (server.store.sql.plain.prepare('SELECT settings FROM alert_channel WHERE id = ?').get(id) as { settings: string }).settings

describe('webhook header values', () => {
  it('are sealed at rest, hidden in every answer, kept when sent back hidden, and sent to the receiver', async () => {
    const created = await admin.post('/api/2/admin/alerts/channels/create', {
      type: 'webhook',
      name: 'hook',
      url: `${receiver.url}/hook`,
      header: [`Authorization: ${TOKEN}`, 'X-Team: ops']
    })
    expect(created.status, created.text).toBe(200)
    const id = (created.json as { id: number }).id
    expect(stored(id)).not.toContain('tok-4f1d9c')
    expect(stored(id)).not.toContain('ops')
    const shown = [`Authorization: ${HIDDEN_HEADER_VALUE}`, `X-Team: ${HIDDEN_HEADER_VALUE}`]
    expect((await get(id)).settings.header).toEqual(shown)
    for (const prefix of ['', '/api/1', '/api/2'])
      expect((await admin.get(`${prefix}/admin/alerts/channels/list`)).text).not.toContain('tok-4f1d9c')

    // The console sends back what it was shown, with one value changed and one header added.
    const updated = await admin.post('/api/2/admin/alerts/channels/update', {
      id,
      header: [shown[0], 'X-Team: dev', 'X-Extra: 1']
    })
    expect(updated.status, updated.text).toBe(200)
    expect(await admin.post('/api/2/admin/alerts/channels/test', { id })).toMatchObject({ status: 200, json: { status: 'green' } })
    const sent = receiver.requests.at(-1)!
    expect([sent.headers.authorization, sent.headers['x-team'], sent.headers['x-extra']]).toEqual([TOKEN, 'dev', '1'])
  })

  it('refuses a hidden value with no stored header of that name, keeping the stored settings', async () => {
    const created = await admin.post('/api/2/admin/alerts/channels/create', {
      type: 'webhook',
      name: 'hook 2',
      url: `${receiver.url}/hook`,
      header: [`Authorization: ${TOKEN}`]
    })
    const id = (created.json as { id: number }).id
    const before = stored(id)
    const res = await admin.post('/api/2/admin/alerts/channels/update', { id, header: [`X-Other: ${HIDDEN_HEADER_VALUE}`] })
    expect(res).toMatchObject({
      status: 400,
      json: { error: `invalid argument 'header': header "X-Other" has no stored value to keep: type its value`, argument: 'header' }
    })
    // Nor can create be given one.
    const made = await admin.post('/api/2/admin/alerts/channels/create', {
      type: 'webhook',
      name: 'hook 3',
      url: `${receiver.url}/hook`,
      header: [`Authorization: ${HIDDEN_HEADER_VALUE}`]
    })
    expect(made.status).toBe(400)
    expect(stored(id)).toBe(before)
  })
})
