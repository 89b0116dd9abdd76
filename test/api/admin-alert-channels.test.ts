// admin/alerts/channels/* over real HTTP. Besides the real registry (which holds `desktop` here), the
// server gets a `probe` type of the test's own, with a secret, a list and a number, that records its sends.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { ChannelType } from '../../src/server/alerting/channel'
import { desktopChannel } from '../../src/server/alerting/channels/desktop'
import type { ParentChannel } from '../../src/server/desktop-bridge'
import type { AlertChannelRecord, AlertNotification } from '../../src/shared/api/alerts'
import type { ServerToShellMessage } from '../../src/shared/desktop-api'
import { loginAs, type ApiClient } from '../support/api-client'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { serverForEachTest } from '../support/server-per-test'
import { addUser } from '../support/users'

interface ProbeSettings {
  url: string
  token: string
  header?: string[]
  retries?: number
}
const sends: { settings: ProbeSettings; notification: AlertNotification; subject: string; body: string }[] = []
const probe: ChannelType<ProbeSettings> = {
  type: 'probe',
  settings: z.object({
    url: z.string().url('expected a URL'),
    token: z.string().min(1, 'must not be empty'),
    header: z.array(z.string().regex(/^[\w-]+: .+$/, 'expected "Name: value"')).optional(),
    retries: z.string().regex(/^\d+$/, 'expected a number').transform(Number).optional()
  }),
  secretFields: ['token'],
  async send(settings, notification, message) {
    sends.push({ settings, notification, ...message })
    if (settings.url.includes('broken')) return { ok: false, error: `connection refused by ${settings.url}` }
    if (settings.url.includes('throws')) throw new Error('the probe blew up')
    return { ok: true, log: '202 Accepted' }
  }
}
const channelTypes = [desktopChannel, probe]

let server: TestServer
let admin: ApiClient

serverForEachTest(
  (started) => {
    sends.length = 0
    ;({ server, admin } = started)
  },
  { alertChannelTypes: channelTypes }
)

const probeArgs = {
  type: 'probe',
  name: 'ops',
  url: 'http://127.0.0.1:9/hook',
  token: 's3cret-token',
  header: ['X-A: 1', 'X-B: 2'],
  retries: '3'
}

async function create(args: Record<string, string | string[]>): Promise<number> {
  const res = await admin.post('/api/2/admin/alerts/channels/create', args)
  expect(res.status, res.text).toBe(200)
  return (res.json as { id: number }).id
}
const get = async (id: number) => (await admin.get('/api/2/admin/alerts/channels/get', { id })).json as AlertChannelRecord
const rawSettings = (id: number) =>
  (server.store.sql.plain.prepare('SELECT settings FROM alert_channel WHERE id = ?').get(id) as { settings: string }).settings

describe('admin/alerts/channels create, get and list', () => {
  it('creates a channel and answers it with its settings, secrets only flagged as set', async () => {
    const id = await create(probeArgs)
    const expected: AlertChannelRecord = {
      id,
      name: 'ops',
      type: 'probe',
      enabled: true,
      subject: null,
      body: null,
      settings: { url: 'http://127.0.0.1:9/hook', header: ['X-A: 1', 'X-B: 2'], retries: 3 },
      secrets: { token: true },
      createdat: expect.any(Number)
    }
    expect(await get(id)).toStrictEqual(expected)
    for (const prefix of ['', '/api/1', '/api/2']) {
      const list = await admin.get(`${prefix}/admin/alerts/channels/list`)
      expect(list.status).toBe(200)
      expect(list.json).toStrictEqual({ types: ['desktop', 'probe'], records: [expected] })
      expect(list.text).not.toContain('s3cret-token')
    }
  })

  it('keeps the secrets encrypted at rest, and the other settings readable', async () => {
    const id = await create(probeArgs)
    const stored = rawSettings(id)
    expect(stored).not.toContain('s3cret-token')
    expect(JSON.parse(stored)).toMatchObject({ url: 'http://127.0.0.1:9/hook', token: expect.stringMatching(/.{20,}/) })
  })

  it('takes enabled, templates, and a type without settings', async () => {
    const id = await create({ type: 'desktop', name: 'this pc', enabled: 'false', subject: '{{host}} {{state}}', body: '' })
    expect(await get(id)).toMatchObject({
      type: 'desktop',
      enabled: false,
      subject: '{{host}} {{state}}',
      body: null,
      settings: {},
      secrets: {}
    })
  })

  it('answers 400 naming the bad argument: type, name, settings, templates', async () => {
    const bad = async (args: Record<string, string | string[]>, error: string | RegExp) => {
      const res = await admin.post('/api/2/admin/alerts/channels/create', args)
      expect(res.status, JSON.stringify(args)).toBe(400)
      expect((res.json as { error: string }).error).toMatch(error)
    }
    await bad({ ...probeArgs, type: 'carrier-pigeon' }, "invalid argument 'type': expected one of desktop, probe")
    await bad({ name: 'x' }, "invalid argument 'type': is required")
    await bad({ ...probeArgs, name: ' ' }, "invalid argument 'name': must not be empty")
    await bad({ ...probeArgs, url: 'not a url' }, "invalid argument 'url': expected a URL")
    await bad({ ...probeArgs, token: '' }, "invalid argument 'token': is required")
    await bad({ type: 'probe', name: 'x', url: 'http://h/' }, "invalid argument 'token': is required")
    await bad({ ...probeArgs, header: ['X-A: 1', 'nonsense'] }, /^invalid argument 'header': expected "Name: value"/)
    await bad({ ...probeArgs, retries: 'many' }, "invalid argument 'retries': expected a number")
    await bad({ ...probeArgs, subject: '{{#if}}' }, /^invalid argument 'subject': invalid template: /)
    await bad({ ...probeArgs, body: '{{#each alerts}}' }, /^invalid argument 'body': invalid template: /)
    await bad({ ...probeArgs, enabled: 'maybe' }, "invalid argument 'enabled': expected true or false")
    expect((await admin.get('/api/2/admin/alerts/channels/list')).json).toMatchObject({ records: [] })
  })

  it('answers 409 for a name in use and 404 for an unknown id', async () => {
    await create(probeArgs)
    expect(await admin.post('/api/2/admin/alerts/channels/create', { ...probeArgs, url: 'http://other/' })).toMatchObject({
      status: 409,
      json: { error: "an alert channel named 'ops' exists already" }
    })
    expect(await admin.get('/api/2/admin/alerts/channels/get', { id: 999 })).toMatchObject({
      status: 404,
      json: { error: 'no alert channel with id 999' }
    })
  })
})

describe('admin/alerts/channels/update', () => {
  it('changes what it is given; a secret left out or empty keeps the stored one, a new one replaces it', async () => {
    const id = await create(probeArgs)
    const sealed = rawSettings(id)
    const renamed = await admin.post('/api/2/admin/alerts/channels/update', { id, name: 'ops team', enabled: 'off' })
    expect(renamed).toMatchObject({
      status: 200,
      json: { id, name: 'ops team', enabled: false, settings: { url: 'http://127.0.0.1:9/hook', retries: 3 }, secrets: { token: true } }
    })
    await admin.post('/api/2/admin/alerts/channels/update', { id, url: 'http://127.0.0.1:9/new', token: '', header: '' })
    expect(await get(id)).toMatchObject({ settings: { url: 'http://127.0.0.1:9/new', header: [], retries: 3 }, secrets: { token: true } })
    expect(rawSettings(id)).not.toBe(sealed)
    await admin.post('/api/2/admin/alerts/channels/test', { id })
    expect(sends.at(-1)?.settings).toMatchObject({ url: 'http://127.0.0.1:9/new', token: 's3cret-token' })

    await admin.post('/api/2/admin/alerts/channels/update', { id, token: 'n3w-token' })
    expect(rawSettings(id)).not.toContain('n3w-token')
    await admin.post('/api/2/admin/alerts/channels/test', { id })
    expect(sends.at(-1)?.settings.token).toBe('n3w-token')
  })

  it('sets and clears templates, checks them, keeps the type', async () => {
    const id = await create(probeArgs)
    await admin.post('/api/2/admin/alerts/channels/update', { id, subject: 'S {{summary}}', body: 'B {{message}}', type: 'desktop' })
    expect(await get(id)).toMatchObject({ type: 'probe', subject: 'S {{summary}}', body: 'B {{message}}' })
    await admin.post('/api/2/admin/alerts/channels/test', { id })
    expect(sends.at(-1)).toMatchObject({ subject: 'S This is a test from Overseer', body: 'B This is a test from Overseer' })
    await admin.post('/api/2/admin/alerts/channels/update', { id, subject: '' })
    expect(await get(id)).toMatchObject({ subject: null, body: 'B {{message}}' })
    expect(await admin.post('/api/2/admin/alerts/channels/update', { id, body: '{{/if}}' })).toMatchObject({
      status: 400,
      json: { error: expect.stringMatching(/^invalid argument 'body': invalid template/) }
    })
  })

  it("answers 400 for bad settings, 409 for another channel's name, 404 for an unknown id", async () => {
    const id = await create(probeArgs)
    await create({ ...probeArgs, name: 'other' })
    expect(await admin.post('/api/2/admin/alerts/channels/update', { id, url: 'nope' })).toMatchObject({
      status: 400,
      json: { error: "invalid argument 'url': expected a URL" }
    })
    expect(await admin.post('/api/2/admin/alerts/channels/update', { id, name: 'other' })).toMatchObject({ status: 409 })
    expect((await admin.post('/api/2/admin/alerts/channels/update', { id, name: 'ops' })).status).toBe(200)
    expect(await admin.post('/api/2/admin/alerts/channels/update', { id: 999, name: 'x' })).toMatchObject({
      status: 404,
      json: { error: 'no alert channel with id 999' }
    })
    expect(await get(id)).toMatchObject({ name: 'ops', settings: { url: 'http://127.0.0.1:9/hook' } })
  })
})

describe('a stored channel of a type this server does not have (a downgrade)', () => {
  it('is listed without any of its settings, and cannot be updated or tested', async () => {
    server.store.sql.plain
      .prepare(
        `INSERT INTO alert_channel (id, name, type, settings, created_at)
      VALUES (50, 'old', 'gone', '{"url":"http://x/","token":"sealed?"}', 0)`
      )
      .run()
    expect(await get(50)).toMatchObject({ type: 'gone', settings: {}, secrets: {} })
    const refused = { status: 400, json: { error: "alert channel 50 is of type 'gone', which this server does not have" } }
    expect(await admin.post('/api/2/admin/alerts/channels/update', { id: 50, name: 'new' })).toMatchObject(refused)
    expect(await admin.post('/api/2/admin/alerts/channels/test', { id: 50 })).toMatchObject(refused)
    expect((await admin.post('/api/2/admin/alerts/channels/delete', { id: 50 })).status).toBe(200)
  })
})

describe('admin/alerts/channels/delete', () => {
  it('deletes a channel; 404 the second time', async () => {
    const id = await create(probeArgs)
    expect(await admin.post('/api/2/admin/alerts/channels/delete', { id })).toMatchObject({ status: 200, json: {} })
    expect(await admin.post('/api/2/admin/alerts/channels/delete', { id })).toMatchObject({
      status: 404,
      json: { error: `no alert channel with id ${id}` }
    })
    expect((await admin.get('/api/2/admin/alerts/channels/list')).json).toMatchObject({ records: [] })
  })
})

describe('admin/alerts/channels/test', () => {
  it("sends a sample notification rendered with the channel's templates and the opened secrets: green", async () => {
    const id = await create(probeArgs)
    const before = Math.floor(Date.now() / 1000)
    const res = await admin.post('/api/2/admin/alerts/channels/test', { id })
    expect(res).toMatchObject({ status: 200, json: { status: 'green', description: 'Sent to ops: 202 Accepted' } })
    expect(sends).toHaveLength(1)
    const { settings, notification, subject, body } = sends[0]
    expect(settings).toStrictEqual({ url: 'http://127.0.0.1:9/hook', token: 's3cret-token', header: ['X-A: 1', 'X-B: 2'], retries: 3 })
    expect(notification).toMatchObject({ summary: 'This is a test from Overseer', link: `${server.baseUrl}/#/` })
    expect(notification.alerts).toHaveLength(1)
    expect(notification.alerts[0].date).toBeGreaterThanOrEqual(before)
    expect(subject).toBe('[Overseer] This is a test from Overseer')
    expect(body).toContain('This is a test from Overseer')
  })

  it("answers red with the channel's own error, or what it threw", async () => {
    const broken = await create({ ...probeArgs, url: 'http://127.0.0.1:9/broken' })
    expect((await admin.post('/api/2/admin/alerts/channels/test', { id: broken })).json).toStrictEqual({
      status: 'red',
      description: 'connection refused by http://127.0.0.1:9/broken'
    })
    const throws = await create({ ...probeArgs, name: 'throws', url: 'http://127.0.0.1:9/throws' })
    expect((await admin.post('/api/2/admin/alerts/channels/test', { id: throws })).json).toStrictEqual({
      status: 'red',
      description: 'the probe blew up'
    })
  })

  it('desktop: red with a clear error when no desktop app started the server', async () => {
    const id = await create({ type: 'desktop', name: 'this pc' })
    expect((await admin.post('/api/2/admin/alerts/channels/test', { id })).json).toStrictEqual({
      status: 'red',
      description: 'no desktop app is connected: this server was not started by the Overseer desktop app'
    })
  })

  it('is POST only, 404 for an unknown id', async () => {
    const id = await create(probeArgs)
    expect((await admin.get('/api/2/admin/alerts/channels/test', { id })).status).toBe(405)
    expect(await admin.post('/api/2/admin/alerts/channels/test', { id: 999 })).toMatchObject({ status: 404 })
    expect(sends).toHaveLength(0)
  })
})

describe('admin/alerts/channels/test with the desktop app', () => {
  it('desktop: green, the rendered notification handed to the shell', async () => {
    const messages: ServerToShellMessage[] = []
    const parent: ParentChannel = { send: async (m) => void messages.push(m), onStopRequest: () => {} }
    const desktopServer = await startTestServer({ parent })
    try {
      const client = await loginAs(desktopServer.baseUrl, 'admin', 'adminsecret')
      const created = await client.post('/api/2/admin/alerts/channels/create', {
        type: 'desktop',
        name: 'this pc',
        subject: 'Test: {{summary}}'
      })
      const id = (created.json as { id: number }).id
      expect((await client.post('/api/2/admin/alerts/channels/test', { id })).json).toStrictEqual({
        status: 'green',
        description: 'Sent to this pc'
      })
      expect(messages.filter((m) => m.type === 'notification')).toStrictEqual([
        {
          type: 'notification',
          notification: {
            id: expect.stringMatching(/^test-/),
            title: 'Test: This is a test from Overseer',
            body: expect.stringContaining('This is a test from Overseer'),
            link: `${desktopServer.baseUrl}/#/`
          }
        }
      ])
    } finally {
      await desktopServer.stopAndClean()
    }
  })
})

describe('admin/alerts/channels access rules', () => {
  const mutations = ['create', 'update', 'delete', 'test'].map((m) => `/api/2/admin/alerts/channels/${m}`)

  it('refuses every endpoint to a user who is not an administrator', async () => {
    const id = await create(probeArgs)
    addUser(server.store, { uname: 'viewer', password: 'viewerpw', roleIds: [3] })
    const viewer = await loginAs(server.baseUrl, 'viewer', 'viewerpw')
    expect((await viewer.get('/api/2/admin/alerts/channels/list')).status).toBe(403)
    expect((await viewer.get('/api/2/admin/alerts/channels/get', { id })).status).toBe(403)
    for (const path of mutations) expect((await viewer.post(path, { ...probeArgs, id, name: 'x' })).status, path).toBe(403)
    expect(sends).toHaveLength(0)
    expect(await get(id)).toMatchObject({ name: 'ops' })
  })

  it('with CSRF protection on, every mutation needs the token', async () => {
    const guarded = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
    for (const path of mutations) {
      expect(await guarded.post(path, { ...probeArgs, id: 1 }), path).toMatchObject({ status: 403, json: { error: 'Invalid CSRF token' } })
    }
    const token = await guarded.csrfToken()
    expect((await guarded.post(mutations[0], probeArgs, { CSRFToken: token })).status).toBe(200)
  })
})
