// Personal API tokens (issue 26) over real HTTP: made in a logged-in session and shown once, stored as a
// hash, sent as `Authorization: Bearer` under every prefix and on /metrics, never needing CSRF and never
// making a session; a read-only token changes nothing; a token never exceeds its owner, read live; a
// revoked or expired token, or one whose owner is gone, gets a JSON 401 at once.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiToken, CreatedApiToken } from '../../src/shared/api/api-tokens'
import { Permission } from '../../src/shared/codes'
import { httpRequest, loginAs, PREFIXES, type ApiClient, type ApiResponse } from '../support/api-client'
import { hostOfAgent } from '../support/hosts'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { addUser, addUserWith } from '../support/users'
import { openSse } from '../server/live/sse-client'

let server: TestServer
let admin: ApiClient
let hostA: number
let hostB: number

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.loginAsAdmin()
  hostA = await server.addHost('a'.repeat(32), 'web-a')
  hostB = await server.addHost('b'.repeat(32), 'web-b')
})
afterAll(() => server.stopAndClean())

/** A request carrying only the token: no cookie, no CSRF token. */
function withToken(
  token: string,
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string | number> = {}
): Promise<ApiResponse> {
  const body = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString()
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` }
  if (method === 'GET') return httpRequest(server.baseUrl, 'GET', body ? `${path}?${body}` : path, undefined, headers)
  return httpRequest(server.baseUrl, 'POST', path, body, { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' })
}

async function createToken(client: ApiClient, params: Record<string, string | number>): Promise<CreatedApiToken> {
  const res = await client.post('/api/2/tokens/create', params)
  expect(res.status, res.text).toBe(200)
  return res.json as CreatedApiToken
}

/** A user logged in (CSRF off) holding `permission` on host A only. */
async function userOfA(uname: string, permission: number = Permission.View): Promise<ApiClient> {
  addUserWith(server.store, uname, permission, { hosts: [hostA] })
  return loginAs(server.baseUrl, uname, `${uname}-secret`)
}

const sessionCount = () => Number(server.store.sql.rows<{ n: number }>('SELECT COUNT(*) AS n FROM session')[0].n)
const INVALID = { error: 'the API token is not valid (unknown, revoked or expired)' }

describe('making, listing and revoking tokens', () => {
  it('shows the token once, lists it without the secret, stores only its SHA-256, and revokes it', async () => {
    const owner = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
    expect((await owner.post('/api/2/tokens/create', { name: 'grafana', scope: 'read' })).json).toEqual({ error: 'Invalid CSRF token' })
    const csrf = { CSRFToken: await owner.csrfToken() }
    const res = await owner.post('/api/2/tokens/create', { name: 'grafana', scope: 'read', expires: 30 }, csrf)
    expect(res.status).toBe(200)
    const made = res.json as CreatedApiToken
    expect(made.token).toMatch(/^ovs_[A-Za-z0-9_-]{43}$/)
    expect(made).toMatchObject({ name: 'grafana', scope: 'read', uname: 'admin', prefix: made.token.slice(0, 12), lastused: null })
    expect(made.expires! - made.created).toBe(30 * 86_400)

    const listed = ((await owner.get('/api/2/tokens/list')).json as { tokens: ApiToken[] }).tokens
    expect(listed.find((t) => t.id === made.id)).toEqual({ ...made, token: undefined })
    expect(JSON.stringify(listed)).not.toContain(made.token)

    const rows = server.store.sql.rows<Record<string, unknown>>('SELECT * FROM api_token WHERE id = ?', [made.id])
    expect(rows).toHaveLength(1)
    expect(rows[0].token_hash).toBe(createHash('sha256').update(made.token).digest('hex'))
    expect(Object.values(rows[0]).some((v) => String(v).includes(made.token.slice(12)))).toBe(false)

    expect((await withToken(made.token, 'GET', '/api/2/status/hosts/list')).status).toBe(200)
    expect((await owner.post('/api/2/tokens/revoke', { id: made.id }, csrf)).json).toEqual({})
    const after = await withToken(made.token, 'GET', '/api/2/status/hosts/list')
    expect(after.status).toBe(401)
    expect(after.json).toEqual(INVALID)
    expect(after.headers['www-authenticate']).toBe('Bearer')
    expect((await owner.post('/api/2/tokens/revoke', { id: made.id }, csrf)).status).toBe(404)
  })

  it('refuses a bad name, scope or expiry with a clear 400, and a 51st token', async () => {
    const owner = await userOfA('many')
    expect((await owner.post('/api/2/tokens/create', { name: ' ', scope: 'read' })).json).toMatchObject({ argument: 'name' })
    expect((await owner.post('/api/2/tokens/create', { name: 'x', scope: 'admin' })).json).toMatchObject({ argument: 'scope' })
    expect((await owner.post('/api/2/tokens/create', { name: 'x', scope: 'read', expires: 0 })).json).toMatchObject({ argument: 'expires' })
    for (let i = 0; i < 50; i++) await createToken(owner, { name: `t${i}`, scope: 'read' })
    const refused = await owner.post('/api/2/tokens/create', { name: 'one too many', scope: 'read' })
    expect(refused.status).toBe(400)
    expect(refused.json).toEqual({ error: 'a user holds at most 50 API tokens: revoke one first' })
  })

  it('lets an administrator list and revoke anyone’s tokens, and nobody else revoke them', async () => {
    const owner = await userOfA('olga')
    const other = await userOfA('otto')
    const made = await createToken(owner, { name: 'olga script', scope: 'full' })
    expect((await other.post('/api/2/tokens/revoke', { id: made.id })).status).toBe(404)
    expect((await other.get('/api/2/admin/tokens/list')).status).toBe(403)
    const userid = server.store.users.findByName('olga')!.id
    const all = ((await admin.get('/api/2/admin/tokens/list', { userid })).json as { tokens: ApiToken[] }).tokens
    expect(all.map((t) => [t.uname, t.name])).toEqual([['olga', 'olga script']])
    expect((await other.post('/api/2/admin/tokens/revoke', { id: made.id })).status).toBe(403)
    expect((await admin.post('/api/2/admin/tokens/revoke', { id: made.id })).json).toEqual({})
    expect((await withToken(made.token, 'GET', '/api/2/profile/get')).status).toBe(401)
  })
})

describe('Bearer requests', () => {
  it('work under /api/1, /api/2 and the legacy paths, with no session made and no cookie set', async () => {
    const { token } = await createToken(admin, { name: 'everywhere', scope: 'read' })
    const before = sessionCount()
    for (const prefix of PREFIXES) {
      const res = await withToken(token, 'GET', `${prefix}/status/hosts/list`)
      expect(res.status, prefix).toBe(200)
      expect(res.headers['content-type']).toMatch(/^application\/json/)
      expect(res.headers['set-cookie']).toBeUndefined()
      expect(JSON.stringify(res.json)).toContain('web-b')
    }
    expect(sessionCount()).toBe(before)
  })

  it('work on /metrics, whose Basic auth still works', async () => {
    const { token } = await createToken(admin, { name: 'prometheus', scope: 'read' })
    const res = await withToken(token, 'GET', '/metrics')
    expect(res.status).toBe(200)
    expect(res.text).toContain('overseer_host_up')
    const basic = await httpRequest(server.baseUrl, 'GET', '/metrics', undefined, {
      Authorization: `Basic ${Buffer.from('admin:adminsecret').toString('base64')}`
    })
    expect(basic.status).toBe(200)
    const wrong = await httpRequest(server.baseUrl, 'GET', '/metrics', undefined, { Authorization: `Bearer ${token}x` })
    expect(wrong.status).toBe(401)
    expect(wrong.json).toEqual(INVALID)
  })

  it('answer 401 to a garbage, unknown or empty token, on the API and /metrics', async () => {
    const unknown = 'ovs_' + 'A'.repeat(43)
    for (const token of ['garbage', unknown, '', 'ovs_']) {
      for (const path of ['/api/2/status/hosts/list', '/status/hosts/list', '/metrics']) {
        const res = await withToken(token, 'GET', path)
        expect(res.status, `${path} with "${token}"`).toBe(401)
        expect(res.json).toEqual(INVALID)
      }
    }
  })

  it('answer 401 before reading a large body sent with a bad token, and take it with a good one', async () => {
    const { token } = await createToken(admin, { name: 'large', scope: 'full' })
    const note = { id: 1, message: 'seen', padding: 'x'.repeat(20_000) }
    const refused = await withToken('ovs_' + 'B'.repeat(43), 'POST', '/api/2/reports/events/note', note)
    expect(refused.status).toBe(401)
    expect(refused.json).toEqual(INVALID)
    // Past the first 16 KiB allowed without a login: a 404 for the unknown event, not 401 or 413.
    expect((await withToken(token, 'POST', '/api/2/reports/events/note', note)).status).toBe(404)
  })

  it('open the live stream, which brings the changes the owner may view', async () => {
    const { token } = await createToken(admin, { name: 'live', scope: 'read' })
    const stream = await openSse(server.baseUrl, '/api/2/live', { Authorization: `Bearer ${token}` })
    expect(stream.status).toBe(200)
    expect(stream.contentType).toBe('text/event-stream')
    await stream.waitFor((f) => f.event === 'ready')
    await server.addHost('c'.repeat(32), 'web-c')
    await stream.waitFor((f) => f.event === 'host-registered')
    stream.close()
  })

  it('need no CSRF token for a full token, whose mutation runs', async () => {
    const { token } = await createToken(admin, { name: 'provisioning', scope: 'full' })
    const res = await withToken(token, 'POST', '/api/2/admin/users/create', {
      uname: 'made-by-script',
      password: 'pw-script-1',
      fullname: 'S',
      roleid: 3
    })
    expect(res.status, res.text).toBe(200)
    expect(server.store.users.findByName('made-by-script')).toBeDefined()
  })

  it('refuse every mutation to a read-only token, admin changes included, while reads pass', async () => {
    const { token } = await createToken(admin, { name: 'dashboard', scope: 'read' })
    expect((await withToken(token, 'GET', '/api/2/admin/users/list')).status).toBe(200)
    for (const [path, params] of [
      ['/api/2/admin/users/create', { uname: 'nope', password: 'pw-nope-1', fullname: 'N', roleid: 3 }],
      ['/api/2/admin/hosts/delete', { id: hostB }],
      ['/api/2/settings/update', { sessiontimeout: 600 }],
      ['/api/2/tokens/revoke', { id: 1 }]
    ] as const) {
      const res = await withToken(token, 'POST', path, params)
      expect(res.status, path).toBe(403)
      expect((res.json as { error: string }).error).toMatch(/^this API token is read-only/)
    }
    expect(server.store.users.findByName('nope')).toBeUndefined()
    expect(hostOfAgent(server.store, 'b'.repeat(32))).toBeDefined()
  })

  it('cannot make tokens or use the session endpoints', async () => {
    const { token } = await createToken(admin, { name: 'full', scope: 'full' })
    for (const path of ['/api/2/tokens/create', '/api/2/session/put', '/api/2/session/get', '/api/2/profile/update']) {
      const res = await withToken(token, 'POST', path, { name: 'minted', scope: 'full' })
      expect(res.status, path).toBe(403)
      expect((res.json as { error: string }).error).toMatch(/needs a logged-in session, not an API token$/)
    }
    expect((await withToken(token, 'GET', '/api/2/profile/get')).json).toMatchObject({ uname: 'admin', csrftoken: '' })
  })
})

describe('a token never exceeds its owner', () => {
  it("a viewer's full token reaches neither administration nor hosts outside the viewer's role", async () => {
    const viewer = await userOfA('vera')
    const { token } = await createToken(viewer, { name: 'vera full', scope: 'full' })
    const list = await withToken(token, 'GET', '/api/2/status/hosts/list')
    expect(JSON.stringify(list.json)).toContain('web-a')
    expect(JSON.stringify(list.json)).not.toContain('web-b')
    expect((await withToken(token, 'GET', '/api/2/status/hosts/get', { id: hostB })).status).toBe(404)
    expect((await withToken(token, 'GET', '/api/2/admin/users/list')).status).toBe(403)
    expect((await withToken(token, 'POST', '/api/2/admin/hosts/delete', { id: hostA })).status).toBe(403)
    const metrics = await withToken(token, 'GET', '/metrics')
    expect(metrics.text).toContain('web-a')
    expect(metrics.text).not.toContain('web-b')
  })

  // Roles changed in the store, as admin/users/update or admin/roles/* change them.
  it('an owner demoted loses it at the next request; one made collector-only or deleted gets 401', async () => {
    const bossId = addUser(server.store, { uname: 'boss', password: 'boss-secret', roleIds: [1] })
    const boss = await loginAs(server.baseUrl, 'boss', 'boss-secret')
    const full = await createToken(boss, { name: 'boss full', scope: 'full' })
    const read = await createToken(boss, { name: 'boss read', scope: 'read' })
    expect((await withToken(full.token, 'GET', '/api/2/admin/users/list')).status).toBe(200)
    expect((await withToken(read.token, 'GET', '/api/2/admin/users/list')).status).toBe(200)

    server.store.users.update(bossId, { roleIds: [3] })
    expect((await withToken(full.token, 'GET', '/api/2/admin/users/list')).status).toBe(403)
    expect((await withToken(read.token, 'GET', '/api/2/admin/users/list')).status).toBe(403)
    expect((await withToken(full.token, 'GET', '/api/2/status/hosts/list')).status).toBe(200)

    server.store.users.update(bossId, { roleIds: [2] })
    expect((await withToken(full.token, 'GET', '/api/2/status/hosts/list')).json).toEqual(INVALID)

    server.store.users.update(bossId, { roleIds: [3] })
    expect((await withToken(full.token, 'GET', '/api/2/status/hosts/list')).status).toBe(200)
    expect((await admin.post('/api/2/admin/users/delete', { id: bossId })).status).toBe(200)
    const gone = await withToken(full.token, 'GET', '/api/2/status/hosts/list')
    expect(gone.status).toBe(401)
    expect(server.store.sql.rows('SELECT id FROM api_token WHERE user_id = ?', [bossId])).toEqual([])
  })
})

describe('expiry and last use', () => {
  it('an expired token gets 401 at once', async () => {
    const owner = await userOfA('erin')
    const made = await createToken(owner, { name: 'short', scope: 'read', expires: 1 })
    expect((await withToken(made.token, 'GET', '/api/2/status/hosts/list')).status).toBe(200)
    server.store.sql.execute('UPDATE api_token SET expires_at = ? WHERE id = ?', [Math.floor(Date.now() / 1000) - 1, made.id])
    const res = await withToken(made.token, 'GET', '/api/2/status/hosts/list')
    expect(res.status).toBe(401)
    expect(res.json).toEqual(INVALID)
  })

  it('shows when a token was last used', async () => {
    const owner = await userOfA('lou')
    const made = await createToken(owner, { name: 'used', scope: 'read' })
    expect((await withToken(made.token, 'GET', '/api/2/status/hosts/list')).status).toBe(200)
    const listed = ((await owner.get('/api/2/tokens/list')).json as { tokens: ApiToken[] }).tokens
    expect(listed[0].lastused).toBeGreaterThanOrEqual(made.created)
  })
})
