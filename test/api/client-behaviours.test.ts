// The client behaviours of compat §8.1 (CLI-1 … CLI-11), each driven the way its client does: Ruby's
// Net::HTTP bytes on a raw socket, or the curl provisioning script, against the real server.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SecretBox } from '../../src/server/auth/secret-box'
import { DEFAULT_SESSION_TIMEOUT_SEC } from '../../src/server/auth/sessions'
import { httpRequest, loginAs, PREFIXES, type ApiClient } from '../support/api-client'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import { hostOfAgent } from '../support/hosts'
import { ADMIN, COLLECTOR, type TestServer } from '../support/in-process-server'
import { serverForEachTest } from '../support/server-per-test'
import { viewerOf } from '../support/viewers'
import { isLoginPage, rubyRequest, runClientScript, sessionCookie, type RawAnswer, type RubyRequest } from './client-behaviours-clients'

let server: TestServer
let admin: ApiClient
serverForEachTest((started) => {
  server = started.server
  admin = started.admin
})

const AGENT = (n: number) => String(n).padStart(32, 'a')
const CREDENTIALS = `z_username=${ADMIN.user}&z_password=${ADMIN.password}`

const ruby = (method: 'GET' | 'POST', target: string, req?: RubyRequest) => rubyRequest(server.port, method, target, req)

/** A session cookie from GET /index.csp, as the clients start. */
async function freshCookie(): Promise<string> {
  const cookie = sessionCookie(await ruby('GET', '/index.csp'))
  expect(cookie).toMatch(/^zsessionid=[0-9a-f]{32}$/)
  return cookie!
}

function json(answer: RawAnswer): unknown {
  expect(answer.status).toBe(200)
  expect(answer.headers.get('content-type')).toEqual(['application/json; charset=utf-8'])
  return JSON.parse(answer.body)
}

/** True when the cookie's session is logged in: the API answers JSON, not the login page. */
async function loggedIn(cookie: string): Promise<boolean> {
  const answer = await ruby('GET', '/api/2/session/get', { cookie })
  if (isLoginPage(answer)) return false
  json(answer)
  return true
}

describe('CLI-1: credentials in the query string of a POST login', () => {
  it('logs in with an empty body (302), the same cookie kept, z_csrf_protection read from there too', async () => {
    const cookie = await freshCookie()
    const login = await ruby('POST', `/z_security_check?${CREDENTIALS}&z_csrf_protection=off`, { cookie, form: '' })
    expect(login.status).toBe(302)
    expect(login.headers.get('location')).toEqual(['/index.csp'])
    expect(login.headers.get('set-cookie')).toBeUndefined()
    // CSRF off as asked in the query: a change without the token is taken.
    expect(json(await ruby('POST', '/api/2/session/put', { cookie, form: 'note=kept' }))).toEqual({})
  })

  it('lets the form body win over the query string', async () => {
    const wrongInQuery = await freshCookie()
    const bodyWins = await ruby('POST', `/z_security_check?z_username=${ADMIN.user}&z_password=wrong`, {
      cookie: wrongInQuery,
      form: `z_password=${ADMIN.password}`
    })
    expect(bodyWins.status).toBe(302)
    expect(await loggedIn(wrongInQuery)).toBe(true)

    const wrongInBody = await freshCookie()
    const bodyLoses = await ruby('POST', `/z_security_check?${CREDENTIALS}`, { cookie: wrongInBody, form: 'z_password=wrong' })
    expect(bodyLoses.status).toBe(401)
    expect(await loggedIn(wrongInBody)).toBe(false)
  })
})

describe('CLI-2: login by GET', () => {
  it('answers 302 and the same cookie then reads JSON under every prefix', async () => {
    const cookie = await freshCookie()
    const login = await ruby('GET', `/z_security_check?${CREDENTIALS}`, { cookie })
    expect(login.status).toBe(302)
    for (const prefix of PREFIXES) {
      expect(json(await ruby('GET', `${prefix}/status/hosts/list`, { cookie }))).toMatchObject({ totalRecords: 0 })
    }
  })

  it('gives a client without a cookie its session with the 302', async () => {
    const login = await ruby('GET', `/z_security_check?${CREDENTIALS}&z_csrf_protection=off`)
    expect(login.status).toBe(302)
    expect(await loggedIn(sessionCookie(login)!)).toBe(true)
  })

  // Login CSRF: a page elsewhere makes the visitor's browser log in to the attacker's account.
  it.each([
    ['GET', { Origin: 'http://evil.example' }],
    ['GET', { 'Sec-Fetch-Site': 'cross-site' }],
    ['GET', { 'Sec-Fetch-Site': 'same-site' }],
    // A link or a frame over plain HTTP: no Origin, no Sec-Fetch-Site, but a navigation's header.
    ['GET', { 'Upgrade-Insecure-Requests': '1' }],
    ['POST', { Origin: 'http://evil.example' }],
    ['POST', { Origin: 'null' }],
    ['POST', { 'Sec-Fetch-Site': 'cross-site' }],
    ['POST', { 'Sec-Fetch-Site': 'same-site' }]
  ] as const)('refuses a %s login a browser says comes from another site: %o', async (method, headers) => {
    const cookie = await freshCookie()
    const target = method === 'GET' ? `/z_security_check?${CREDENTIALS}` : '/z_security_check'
    const refused = await ruby(method, target, { cookie, headers, ...(method === 'POST' && { form: CREDENTIALS }) })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('content-type')).toEqual(['text/html'])
    expect(await loggedIn(cookie)).toBe(false)
  })

  it("takes a browser's POST from its own origin, as the login form sends it", async () => {
    const cookie = await freshCookie()
    const login = await ruby('POST', '/z_security_check', { cookie, form: CREDENTIALS, headers: { Origin: 'http://127.0.0.1' } })
    expect(login.status).toBe(302)
    // A browser's login gets a new id (fixation), which is logged in.
    expect(await loggedIn(sessionCookie(login)!)).toBe(true)
  })

  it('does not log in by HEAD', async () => {
    const cookie = await freshCookie()
    const head = await httpRequest(server.baseUrl, 'HEAD', `/z_security_check?${CREDENTIALS}`, undefined, { Cookie: cookie })
    expect(head.status).not.toBe(302)
    expect(await loggedIn(cookie)).toBe(false)
  })
})

describe('CLI-3: repeated slashes', () => {
  it('serves //, //index.csp, //z_security_check and //status/hosts/list as their single-slash paths', async () => {
    for (const page of ['//', '//index.csp']) expect(isLoginPage(await ruby('GET', page))).toBe(true)
    const cookie = await freshCookie()
    expect((await ruby('POST', '//z_security_check', { cookie, form: CREDENTIALS })).status).toBe(302)
    for (const prefix of PREFIXES) {
      expect(json(await ruby('GET', `/${prefix}//status/hosts/list`, { cookie }))).toMatchObject({ totalRecords: 0 })
    }
    expect(json(await ruby('GET', '//api//2///status/hosts/list', { cookie }))).toMatchObject({ totalRecords: 0 })
  })

  it('takes an agent posting to //collector', async () => {
    const res = await postCollector(server.baseUrl, asAgent(fixture('02-status-heartbeat'), AGENT(1), 'slashes'), {
      auth: `${COLLECTOR.user}:${COLLECTOR.password}`,
      path: '//collector'
    })
    expect(res.status).toBe(200)
    expect(hostOfAgent(server.store, AGENT(1))?.hostname).toBe('slashes')
  })

  it('checks the collapsed path as the direct one: no session, a viewer, a bad collector password', async () => {
    for (const path of ['/admin/users/list', '//admin/users/list', '//api/2//admin/users/list']) {
      expect(isLoginPage(await ruby('GET', path))).toBe(true)
    }
    const viewer = await viewerOf(server, 'viewer', { hosts: [] })
    for (const path of ['/api/2/admin/users/list', '//api/2/admin/users/list', '//admin//users//list']) {
      expect(await viewer.get(path)).toMatchObject({ status: 403, json: { error: 'administrator rights required' } })
    }
    const res = await postCollector(server.baseUrl, asAgent(fixture('02-status-heartbeat'), AGENT(2), 'x'), {
      auth: `${COLLECTOR.user}:wrong`,
      path: '//collector'
    })
    expect(res.status).toBe(401)
    expect(hostOfAgent(server.store, AGENT(2))).toBeUndefined()
  })

  it('leaves the query string as sent', async () => {
    const cookie = await freshCookie()
    await ruby('POST', '/z_security_check', { cookie, form: `${CREDENTIALS}&z_csrf_protection=off` })
    expect(json(await ruby('GET', '//session/put?path=a//b', { cookie }))).toEqual({})
    expect(json(await ruby('GET', '//session/get?key=path', { cookie }))).toEqual({ path: 'a//b' })
  })
})

describe('CLI-4: map/name/host', () => {
  it('maps every host name to its id for an administrator, under every prefix', async () => {
    const web1 = await server.addHost(AGENT(1), 'web1')
    const web2 = await server.addHost(AGENT(2), 'web2')
    for (const prefix of PREFIXES) {
      const res = await admin.get(`${prefix}/map/name/host`)
      expect(res.json).toEqual({ map: { name: { host: { web1, web2 } } } })
    }
  })

  it('maps only the hosts a viewer may view; without a session it is the login page', async () => {
    const web1 = await server.addHost(AGENT(1), 'web1')
    await server.addHost(AGENT(2), 'web2')
    const viewer = await viewerOf(server, 'viewer', { hosts: [web1] })
    for (const prefix of PREFIXES) {
      expect((await viewer.get(`${prefix}/map/name/host`)).json).toEqual({ map: { name: { host: { web1 } } } })
      expect(isLoginPage(await ruby('GET', `${prefix}/map/name/host`))).toBe(true)
    }
  })

  it('keeps the older of two hosts with one name, and a host named __proto__', async () => {
    const older = await server.addHost(AGENT(1), 'twin')
    await server.addHost(AGENT(2), 'twin')
    const proto = await server.addHost(AGENT(3), '__proto__')
    const answer = await ruby('GET', '/map/name/host', { cookie: admin.cookie })
    const host = (json(answer) as { map: { name: { host: object } } }).map.name.host
    expect(Object.entries(host).sort()).toEqual([
      ['__proto__', proto],
      ['twin', older]
    ])
  })
})

describe('CLI-5: admin/hosts/list keys in alphabetical order', () => {
  it('lets a pretty-printed list be read as the four lines before "status": "Inactive"', async () => {
    const active = await server.addHost(AGENT(1), 'up')
    const inactive = await server.addHost(AGENT(2), 'down')
    const update = await admin.post('/admin/hosts/update', {
      id: inactive,
      hostname: 'down',
      agentuser: 'admin',
      agentpassword: '',
      status: 1
    })
    expect(update.status).toBe(200)
    for (const prefix of PREFIXES) {
      const body = (await ruby('GET', `${prefix}/admin/hosts/list`, { cookie: admin.cookie })).body
      // The raw text: each record's keys as written, sorted.
      const records = [...body.matchAll(/\{"agentversion"[^}]*\}/g)].map((m) => [...m[0].matchAll(/"(\w+)":/g)].map((k) => k[1]))
      expect(records).toHaveLength(2)
      for (const keys of records) {
        expect(keys).toEqual(['agentversion', 'description', 'hostname', 'id', 'ipaddr', 'monitversion', 'status'])
      }
      // What the client does: pretty-print, then read the four lines above the inactive host's status.
      const lines = JSON.stringify(JSON.parse(body), null, 2).split('\n')
      const at = lines.findIndex((line) => line.trim() === '"status": "Inactive"')
      expect(lines.slice(at - 4, at).map((line) => line.trim())).toEqual([
        '"hostname": "down",',
        `"id": ${inactive},`,
        '"ipaddr": "127.0.0.1",',
        '"monitversion": "5.33.0",'
      ])
      expect(body).toContain(`"id":${active}`)
    }
  })
})

describe('CLI-6: admin/hosts/update with monituser/monitpassword, then delete', () => {
  it.each(PREFIXES)('under "%s"', async (prefix) => {
    const id = await server.addHost(AGENT(1), 'web1')
    const token = await admin.csrfToken()
    const update = await ruby('POST', `${prefix}/admin/hosts/update`, {
      cookie: admin.cookie,
      form: `id=${id}&hostname=renamed&monituser=admin&monitpassword=agentsecret&CSRFToken=${token}`
    })
    expect(json(update)).toMatchObject({ id, hostname: 'renamed', agentuser: 'admin', agentpassword: '' })
    const sealed = hostOfAgent(server.store, AGENT(1))!.agent_password
    expect(sealed).not.toContain('agentsecret')
    expect(SecretBox.fromKeyFile(join(server.dataDir, 'secret.key')).open(sealed)).toBe('agentsecret')
    const deleted = await ruby('POST', `${prefix}/admin/hosts/delete`, { cookie: admin.cookie, form: `id=${id}&CSRFToken=${token}` })
    expect(json(deleted)).toEqual({})
    expect(hostOfAgent(server.store, AGENT(1))).toBeUndefined()
  })
})

describe('CLI-7: a session that deletes its own user', () => {
  const sessionsOf = (column: 'user_id' | 'deleted_user_id', id: number) =>
    server.store.sql.all(server.store.db.selectFrom('session').select('id').where(column, '=', id)).length

  it('runs the provisioning script: the session goes on, the deleted user’s other sessions end', async () => {
    const adminId = server.store.users.findByName(ADMIN.user)!.id
    const otherSession = admin.cookie!
    const out = await runClientScript('provision.sh', [server.baseUrl, ADMIN.user, ADMIN.password, 'opsPassw0rd', 'agentsPassw0rd'])
    const steps = new Map(
      out
        .trim()
        .split('\n')
        .map((line) => [line.split(' ')[0], line.slice(line.indexOf(' ') + 1)])
    )
    expect(steps.get('login')).toBe('302')
    expect(steps.get('create-admin')).toMatch(/^200 \{.*"uname":"ops".*"admin":true/)
    expect(steps.get('create-collector')).toMatch(/^200 \{.*"uname":"agents".*"roles":\[2\]/)
    expect(steps.get('delete-self')).toBe('200 {}')
    expect(steps.get('delete-monit')).toBe('200 {}')
    const list = steps.get('list')!
    expect(list).toMatch(/^200 \[/)
    expect(list).toContain('"uname":"ops"')
    expect(list).toContain('"uname":"agents"')
    expect(list).not.toContain(`"uname":"${ADMIN.user}"`)
    expect(list).not.toContain('"uname":"monit"')
    expect(steps.get('logout')).toBe('302')

    // The administrator's session from before the script ended with its user; the script's, at its logout.
    expect(await loggedIn(otherSession)).toBe(false)
    expect(sessionsOf('user_id', adminId) + sessionsOf('deleted_user_id', adminId)).toBe(0)
    // What the script made works: the new administrator logs in, the new collector user posts.
    expect((await loginAs(server.baseUrl, 'ops', 'opsPassw0rd')).cookie).toBeTruthy()
    const posted = await postCollector(server.baseUrl, asAgent(fixture('02-status-heartbeat'), AGENT(1), 'web1'), {
      auth: 'agents:agentsPassw0rd'
    })
    expect(posted.status).toBe(200)
    const audit = server.store.sql.all(server.store.db.selectFrom('audit_log').select(['action', 'uname']).where('action', '=', 'logout'))
    expect(audit).toContainEqual({ action: 'logout', uname: ADMIN.user })
  })

  it('never deletes the last administrator, not even from the session of a deleted one', async () => {
    const token = await admin.csrfToken()
    const adminId = server.store.users.findByName(ADMIN.user)!.id
    const alone = await admin.post('/api/2/admin/users/delete', { id: adminId }, { CSRFToken: token })
    expect(alone).toMatchObject({ status: 400, json: { error: 'refused: no user would be left with an active administrator role' } })
    expect(await loggedIn(admin.cookie!)).toBe(true)

    const ops = await admin.post(
      '/admin/users/create',
      { uname: 'ops', fullname: 'Ops', password: 'opsPassw0rd', admin: 1 },
      { CSRFToken: token }
    )
    expect(ops.status).toBe(200)
    expect((await admin.post('/api/2/admin/users/delete', { id: adminId }, { CSRFToken: token })).json).toEqual({})
    // The session goes on as the administrator it was, with its CSRF token; the last administrator stays.
    const opsId = server.store.users.findByName('ops')!.id
    const last = await admin.post('/api/2/admin/users/delete', { id: opsId }, { CSRFToken: token })
    expect(last).toMatchObject({ status: 400, json: { error: 'refused: no user would be left with an active administrator role' } })
    expect(server.store.users.find(opsId)).toBeDefined()

    // Logged in again on the same cookie, the session is the new user's in full.
    expect((await admin.post('/z_security_check', { z_username: 'ops', z_password: 'opsPassw0rd' })).status).toBe(302)
    expect(await admin.post('/api/2/tokens/create', { name: 'ci', scope: 'read' }, { CSRFToken: await admin.csrfToken() })).toMatchObject({
      status: 200
    })
  })

  it('refuses what needs a user (a token, a note, the profile) and is not kept alive by its use', async () => {
    await server.collect(asAgent(fixture('03-event-process-not-running'), AGENT(1), 'web1'))
    const eventId = server.store.sql.first(server.store.db.selectFrom('event').select('id'))!.id
    const token = await admin.csrfToken()
    await admin.post('/admin/users/create', { uname: 'ops', fullname: 'Ops', password: 'opsPassw0rd', admin: 1 }, { CSRFToken: token })
    const adminId = server.store.users.findByName(ADMIN.user)!.id
    await admin.post('/api/2/admin/users/delete', { id: adminId }, { CSRFToken: token })
    const error = "needs a user: this session's was deleted"
    expect(await admin.post('/api/2/tokens/create', { name: 'ci', scope: 'read' }, { CSRFToken: token })).toMatchObject({
      status: 403,
      json: { error: `tokens/create ${error}` }
    })
    expect(await admin.post('/api/2/reports/events/note', { id: eventId, message: 'seen' }, { CSRFToken: token })).toMatchObject({
      status: 403,
      json: { error: `reports/events/note ${error}` }
    })
    expect(await admin.post('/api/2/profile/update', { fullname: 'Gone' }, { CSRFToken: token })).toMatchObject({
      status: 403,
      json: { error: `profile/update ${error}` }
    })
    // Its idle clock is not reset by requests: it ends one timeout after the deletion.
    const { db, sql } = server.store
    const before = Math.floor(Date.now() / 1000) - 600
    sql.run(db.updateTable('session').set({ last_access: before }).where('deleted_user_id', '=', adminId))
    expect((await admin.get('/api/2/admin/users/list')).status).toBe(200)
    expect(sql.first(db.selectFrom('session').select('last_access').where('deleted_user_id', '=', adminId))?.last_access).toBe(before)
    sql.run(
      db
        .updateTable('session')
        .set({ last_access: before - DEFAULT_SESSION_TIMEOUT_SEC })
        .where('deleted_user_id', '=', adminId)
    )
    expect(await loggedIn(admin.cookie!)).toBe(false)
  })

  it('survives a flood of anonymous sessions', async () => {
    const token = await admin.csrfToken()
    await admin.post('/admin/users/create', { uname: 'ops', fullname: 'Ops', password: 'opsPassw0rd', admin: 1 }, { CSRFToken: token })
    await admin.post('/admin/users/delete', { uname: ADMIN.user }, { CSRFToken: token })
    const { db, sql } = server.store
    const now = Math.floor(Date.now() / 1000)
    const anonymous = Array.from({ length: 1100 }, (_, i) => ({
      id: `flood-${i}`,
      user_id: null,
      csrf_token: 't',
      csrf_protection: 1,
      attributes: '{}',
      saved_url: null,
      created_at: now,
      last_access: now
    }))
    sql.run(db.insertInto('session').values(anonymous))
    await freshCookie() // a new anonymous session evicts beyond the limit
    expect(await loggedIn(admin.cookie!)).toBe(true)
  })
})

describe('CLI-8, CLI-9: the login page', () => {
  it('CLI-8: a failed login, by POST or GET, is the HTML page saying "Invalid username"', async () => {
    for (const answer of [
      await ruby('POST', '/z_security_check', { cookie: await freshCookie(), form: `z_username=${ADMIN.user}&z_password=wrong` }),
      await ruby('GET', `/z_security_check?z_username=nobody&z_password=wrong`)
    ]) {
      expect(answer.status).toBe(401)
      expect(answer.headers.get('content-type')).toEqual(['text/html'])
      expect(answer.body).toContain('Invalid username')
    }
  })

  it.each(['/', '/index.csp', '//'])('CLI-9: %s serves a form posting to z_security_check with z_username and z_password', async (path) => {
    const page = await ruby('GET', path)
    expect(isLoginPage(page)).toBe(true)
    const form = /<form\b[^>]*>([\s\S]*?)<\/form>/.exec(page.body)
    expect(form?.[0]).toMatch(/^<form\b[^>]*\baction="z_security_check"/)
    expect(form?.[0]).toMatch(/^<form\b[^>]*\bmethod="post"/)
    expect(form![1]).toMatch(/<input\b[^>]*\bname="z_username"/)
    expect(form![1]).toMatch(/<input\b[^>]*\bname="z_password"[^>]*\btype="password"/)
  })
})

describe('CLI-10: reports/uptime/list?range=6', () => {
  it.each(PREFIXES)('answers {"items": [{name, uptime}, …]} under "%s"', async (prefix) => {
    await server.addHost(AGENT(1), 'web1')
    const report = json(await ruby('GET', `${prefix}/reports/uptime/list?range=6`, { cookie: admin.cookie })) as {
      items: { name: string; uptime: number }[]
    }
    expect(report.items).toHaveLength(1)
    expect(report.items[0]).toMatchObject({ name: 'web1', uptime: expect.any(Number) })
    expect(report).not.toHaveProperty('records')
  })
})

describe('CLI-11: admin=1 and admin=0 in admin/users/create and update', () => {
  it.each(['', '/api/1'])('under "%s"', async (prefix) => {
    const token = await admin.csrfToken()
    const create = (uname: string, flag: string) =>
      ruby('POST', `${prefix}/admin/users/create`, {
        cookie: admin.cookie,
        form: `uname=${uname}&fullname=${uname}&password=${uname}Passw0rd&admin=${flag}&CSRFToken=${token}`
      })
    expect(json(await create('boss', '1'))).toMatchObject({ uname: 'boss', admin: true })
    expect(json(await create('clerk', '0'))).toMatchObject({ uname: 'clerk', admin: false })
    const users = server.store.users
    expect(users.isAdmin(users.findByName('boss')!.id)).toBe(true)
    expect(users.isAdmin(users.findByName('clerk')!.id)).toBe(false)
    // The client greps the plain list for the new names.
    const list = await ruby('GET', `${prefix}/admin/users/list`, { cookie: admin.cookie })
    expect(list.body).toContain('"uname":"boss"')
    expect(list.body).toContain('"uname":"clerk"')

    const password = (await admin.get(`${prefix}/admin/users/get`, { uname: 'boss' })).json as { password: string }
    const update = (uname: string, flag: string) =>
      ruby('POST', `${prefix}/admin/users/update`, {
        cookie: admin.cookie,
        form: `uname=${uname}&fullname=${uname}&password=${password.password}&oldpassword=${password.password}&admin=${flag}&CSRFToken=${token}`
      })
    expect(json(await update('boss', '0'))).toMatchObject({ uname: 'boss', admin: false })
    expect(users.isAdmin(users.findByName('boss')!.id)).toBe(false)
    expect(json(await update('boss', '1'))).toMatchObject({ uname: 'boss', admin: true })
    expect(users.isAdmin(users.findByName('boss')!.id)).toBe(true)
  })

  it('refuses another value with a 400 naming admin', async () => {
    const token = await admin.csrfToken()
    const res = await admin.post(
      '/admin/users/create',
      { uname: 'x', fullname: 'x', password: 'xPassw0rdx', admin: 2 },
      { CSRFToken: token }
    )
    expect(res).toMatchObject({ status: 400, json: { error: expect.stringMatching(/^invalid argument 'admin'/) } })
    expect(server.store.users.findByName('x')).toBeUndefined()
  })
})
