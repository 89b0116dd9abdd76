// Single sign-on with OpenID Connect (issue 30 §2) against a real provider on loopback (the npm registry's
// oidc-provider: test/support/oidc-provider.ts), over real HTTP: the authorization code flow with PKCE, a
// user made at its first login and the same one after, its roles from the group mapping table, logout, a
// user the provider refuses, a forged, an expired and a replayed ID token, a callback replayed or never started, an
// e-mail link, and password login turned off for browsers except the break-glass administrator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SsoSettings } from '../../src/shared/api/single-sign-on'
import { loginAs, type ApiClient } from '../support/api-client'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { CookieJar, OIDC_CLIENT, startTestProvider, type TestAccount, type TestProvider } from '../support/oidc-provider'
import { freePort } from '../support/ports'
import { addUser } from '../support/users'

const ACCOUNTS: Record<string, TestAccount> = {
  alice: {
    sub: 'alice-1',
    preferred_username: 'alice',
    name: 'Alice A',
    email: 'alice@example.com',
    email_verified: true,
    groups: ['ops']
  },
  bob: { sub: 'bob-1', preferred_username: 'bob', name: 'Bob B', email: 'bob@example.com', email_verified: true, groups: ['dev', 'ops'] },
  carol: {
    sub: 'carol-1',
    preferred_username: 'carol',
    name: 'Carol C',
    email: 'carol@example.com',
    email_verified: true,
    groups: [],
    disabled: true
  },
  dave: { sub: 'dave-1', preferred_username: 'dave', name: 'Dave D', email: 'dave.local@example.com', email_verified: true, groups: [] }
}

let server: TestServer
let provider: TestProvider
let admin: ApiClient
let viewerRole: number

beforeAll(async () => {
  const port = await freePort()
  provider = await startTestProvider(ACCOUNTS, `http://127.0.0.1:${port}/auth/oidc/callback`)
  server = await startTestServer({
    port,
    oidc: { issuer: provider.issuer, clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret, groupsClaim: 'groups', linkByEmail: true },
    breakGlassUser: 'admin'
  })
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
  // Viewers of every host (a role row with no hosts or groups).
  viewerRole = server.store.roles.create({
    name: 'Ops viewers',
    description: '',
    admin: false,
    active: true,
    rows: [{ permission: 2, hostIds: [], groupIds: [] }]
  })
}, 30_000)
afterAll(async () => {
  await server?.stopAndClean()
  await provider?.close()
})

/** A browser's single sign-on as `account`: the server's and the provider's cookies kept apart. Returns the callback's answer and the server's jar. */
async function signIn(account: string): Promise<{ res: Response; jar: CookieJar; callback: string }> {
  provider.signInAs(account)
  const jar = new CookieJar()
  const idp = new CookieJar()
  let res = await jar.get(`${server.baseUrl}/auth/oidc/login`)
  expect(res.status, await res.clone().text()).toBe(302)
  let url = res.headers.get('location')!
  expect(url.startsWith(provider.issuer)).toBe(true)
  for (let hops = 0; !url.startsWith(server.baseUrl); hops++) {
    if (hops > 10) throw new Error(`the provider never sent the browser back (at ${url})`)
    res = await idp.get(url)
    url = new URL(res.headers.get('location')!, url).href
  }
  return { res: await jar.get(url), jar, callback: url }
}

const whoAmI = async (jar: CookieJar) => {
  const res = await fetch(`${server.baseUrl}/api/2/profile/get`, { headers: { cookie: jar.header(), accept: 'application/json' } })
  // Without a session the login page answers (text/html, as M/Monit does).
  return res.status === 200 && res.headers.get('content-type')?.startsWith('application/json')
    ? ((await res.json()) as { uname: string }).uname
    : undefined
}
const userRow = (uname: string) =>
  server.store.sql.rows<{ id: number; email: string; fullname: string }>('SELECT id, email, fullname FROM "user" WHERE uname = ?', [
    uname
  ])[0]
const rolesOf = (uname: string) => server.store.users.roleIdsOf(userRow(uname).id)

describe('single sign-on', () => {
  it('logs a browser in with the authorization code flow; the first login makes the user, its roles from its groups', async () => {
    const mapped = await admin.post('/api/2/admin/sso/groups/update', { group: 'ops', roleid: viewerRole })
    expect(mapped.status, mapped.text).toBe(200)
    expect((mapped.json as SsoSettings).groups).toEqual([{ group: 'ops', roleids: [viewerRole] }])
    const { res, jar } = await signIn('alice')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/index.csp')
    expect(await whoAmI(jar)).toBe('alice')
    expect(userRow('alice')).toMatchObject({ email: 'alice@example.com', fullname: 'Alice A' })
    expect(rolesOf('alice')).toEqual([viewerRole])

    // Again: the same user, its roles following the mapping as it is now (ops gives none, dev the role).
    await admin.post('/api/2/admin/sso/groups/update', { group: 'dev', roleid: viewerRole })
    await admin.post('/api/2/admin/sso/groups/update', { group: 'ops' })
    const again = await signIn('alice')
    expect(await whoAmI(again.jar)).toBe('alice')
    expect(server.store.sql.rows('SELECT id FROM "user" WHERE uname LIKE ?', ['alice%'])).toHaveLength(1)
    expect(rolesOf('alice')).toEqual([])
  })

  it('logs out: the session ends', async () => {
    const { jar } = await signIn('bob')
    expect(await whoAmI(jar)).toBe('bob')
    await jar.get(`${server.baseUrl}/login/logout.csp`)
    expect(await whoAmI(jar)).toBeUndefined()
  })

  it('a user the provider refuses (disabled there) gets no session and no account', async () => {
    const { res, jar } = await signIn('carol')
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('The identity provider refused the login (access_denied: the account is disabled)')
    expect(await whoAmI(jar)).toBeUndefined()
    expect(userRow('carol')).toBeUndefined()
  })

  it('a forged ID token, one expired (signed by the provider), and a token answer replayed from another login, are refused', async () => {
    try {
      provider.tokenAnswers('forge')
      const forged = await signIn('bob')
      expect(forged.res.status).toBe(401)
      expect(await whoAmI(forged.jar)).toBeUndefined()
      provider.tokenAnswers('expire')
      const expired = await signIn('bob')
      expect(expired.res.status).toBe(401)
      expect(await whoAmI(expired.jar)).toBeUndefined()
      provider.tokenAnswers('pass')
      await signIn('bob')
      provider.tokenAnswers('replay')
      const replayed = await signIn('alice')
      expect(replayed.res.status).toBe(401)
      expect(await whoAmI(replayed.jar)).toBeUndefined()
    } finally {
      provider.tokenAnswers('pass')
    }
    expect(userRow('forged-admin')).toBeUndefined()
    const refusals = server.store.sql.rows<{ detail: string }>(
      "SELECT detail FROM audit_log WHERE action = 'login-failed' AND target = 'single sign-on'"
    )
    const answers = refusals.filter((r) => r.detail.startsWith('answer refused')).map((r) => r.detail)
    expect(answers).toHaveLength(3)
    expect(answers[1]).toMatch(/exp|expired|timestamp/i)
  })

  it('a callback used twice, or never started in this browser, logs nobody in', async () => {
    const { callback, jar } = await signIn('bob')
    const again = await jar.get(callback)
    expect(again.status).toBe(400)
    const stranger = new CookieJar()
    const elsewhere = await stranger.get(callback)
    expect(elsewhere.status).toBe(400)
    expect(await whoAmI(stranger)).toBeUndefined()
  })

  it('links a provider user to the one local user with its verified e-mail address', async () => {
    addUser(server.store, { uname: 'dave-local', password: 'dave-pw-123456', roleIds: [] })
    server.store.users.update(userRow('dave-local').id, { email: 'Dave.Local@example.com' })
    const { jar } = await signIn('dave')
    expect(await whoAmI(jar)).toBe('dave-local')
    expect(userRow('dave')).toBeUndefined()
  })

  it('password login is off for browsers but the break-glass administrator; scripts keep theirs; the login page offers single sign-on', async () => {
    const browser = (user: string, password: string) =>
      fetch(`${server.baseUrl}/z_security_check`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'same-origin' },
        body: new URLSearchParams({ z_username: user, z_password: password })
      })
    addUser(server.store, { uname: 'erin', password: 'erin-pw-123456', roleIds: [viewerRole] })
    const refused = await browser('erin', 'erin-pw-123456')
    expect(refused.status).toBe(403)
    const page = await refused.text()
    expect(page).toContain('Password login is turned off here: log in with single sign-on')
    expect(page).toContain('href="/auth/oidc/login"')
    expect((await browser('admin', 'adminsecret')).status).toBe(302)
    const script = await loginAs(server.baseUrl, 'erin', 'erin-pw-123456')
    expect((await script.get('/api/2/status/hosts/list')).status).toBe(200)
    const settings = (await admin.get('/api/2/admin/sso/get')).json as SsoSettings
    expect(settings).toMatchObject({ enabled: true, issuer: provider.issuer, passwordlogin: 'break-glass', breakglassuser: 'admin' })
    expect(JSON.stringify(settings)).not.toContain(OIDC_CLIENT.secret)
  })
})
