// admin/users/list|get|create|update|delete over real HTTP: the shapes of each version, the password
// rules of both, the last-administrator guard, and credentials that stop working the moment they change.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { loginAs, PREFIXES, type ApiClient, type ApiResponse, type Params } from '../support/api-client'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import type { TestServer } from '../support/in-process-server'
import { serverForEachTest } from '../support/server-per-test'

const V1_LIST_FIELDS = ['uname', 'fullname', 'image', 'title', 'email', 'mobile', 'imname', 'imtype']
const ADMINISTRATOR = 1
const COLLECTOR = 2
const USER = 3

let server: TestServer
let admin: ApiClient

serverForEachTest((started) => {
  ;({ server, admin } = started)
})

const md5 = (text: string) => createHash('md5').update(text).digest('hex')
const idOf = (uname: string) => server.store.users.findByName(uname)!.id
const rolesOf = (uname: string) => server.store.users.roleIdsOf(idOf(uname))

function expectError(res: ApiResponse, status: number, message: RegExp): void {
  expect(res.status).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/json/)
  expect((res.json as { error: string }).error).toMatch(message)
}

async function createV1(uname: string, extra: Params = {}): Promise<ApiResponse> {
  return admin.post('/api/1/admin/users/create', { uname, password: `${uname}-pw`, fullname: `Full ${uname}`, ...extra })
}

async function createV2(uname: string, roleid: number[], extra: Params = {}): Promise<ApiResponse> {
  return admin.post('/api/2/admin/users/create', { uname, password: `${uname}-pw`, fullname: `Full ${uname}`, roleid, ...extra })
}

async function canLogIn(uname: string, password: string): Promise<boolean> {
  return loginAs(server.baseUrl, uname, password).then(
    () => true,
    () => false
  )
}

async function collectorStatus(auth: string): Promise<number> {
  const body = asAgent(fixture('02-status-heartbeat'), 'a0000000000000000000000000000001', 'alpha')
  return (await postCollector(server.baseUrl, body, { auth })).status
}

describe('admin/users/list (USR-1)', () => {
  it('is a bare array; api/1 has the v1 fields, api/2 and legacy add id as a string, avatar and unsafepassword', async () => {
    expect(
      (await createV2('carol', [USER], { title: 'Ops', email: 'c@example.com', mobile: '555', imname: 'c', imtype: 'irc', image: 'c.png' }))
        .status
    ).toBe(200)
    const carol = {
      uname: 'carol',
      fullname: 'Full carol',
      image: 'c.png',
      title: 'Ops',
      email: 'c@example.com',
      mobile: '555',
      imname: 'c',
      imtype: 'irc'
    }
    const v1 = (await admin.get('/api/1/admin/users/list')).json as Record<string, unknown>[]
    expect(v1.map((u) => u.uname)).toEqual(['admin', 'monit', 'carol'])
    for (const user of v1) expect(Object.keys(user)).toEqual(V1_LIST_FIELDS)
    expect(v1[2]).toStrictEqual(carol)
    for (const prefix of ['', '/api/2']) {
      const list = (await admin.get(`${prefix}/admin/users/list`)).json as Record<string, unknown>[]
      expect(list[2]).toStrictEqual({ id: String(idOf('carol')), ...carol, avatar: 'c.png', unsafepassword: 0 })
      expect(list[0]).toMatchObject({ id: String(idOf('admin')), uname: 'admin', avatar: '' })
    }
  })

  it('answers POST as well, without a CSRF token', async () => {
    const client = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
    expect((await client.post('/api/2/admin/users/list')).status).toBe(200)
  })
})

describe('admin/users/get (USR-2)', () => {
  it('api/1 by uname: every v1 field, the MD5 hash and the admin flag', async () => {
    const res = await admin.get('/api/1/admin/users/get', { uname: 'admin' })
    expect(res.json).toStrictEqual({
      uname: 'admin',
      fullname: 'Administrator',
      image: '',
      title: '',
      email: '',
      phone: '',
      mobile: '',
      imname: '',
      imtype: '',
      admin: true,
      password: md5('adminsecret')
    })
  })

  it('api/2 by id: the id as a string, the stored SHA256 digest and the role ids', async () => {
    const id = idOf('monit')
    const res = await admin.get('/api/2/admin/users/get', { id })
    expect(res.json).toMatchObject({
      id: String(id),
      uname: 'monit',
      fullname: 'Monit collector',
      admin: false,
      password: server.store.users.credentialsOf('monit')!.password_sha256,
      roles: [COLLECTOR]
    })
  })

  it('legacy: the v1 shape plus id and roles', async () => {
    const res = await admin.get('/admin/users/get', { uname: 'admin' })
    expect(res.json).toMatchObject({
      id: String(idOf('admin')),
      uname: 'admin',
      password: md5('adminsecret'),
      admin: true,
      roles: [ADMINISTRATOR]
    })
  })

  it.each(PREFIXES)('%s accepts both id and uname (GEN-6)', async (prefix) => {
    expect((await admin.get(`${prefix}/admin/users/get`, { id: idOf('monit') })).json).toMatchObject({ uname: 'monit' })
    expect((await admin.get(`${prefix}/admin/users/get`, { uname: 'monit' })).json).toMatchObject({ uname: 'monit' })
  })

  it('404 for an unknown user, 400 naming the key when none is given', async () => {
    expectError(await admin.get('/api/1/admin/users/get', { uname: 'ghost' }), 404, /ghost/)
    expectError(await admin.get('/api/2/admin/users/get', { id: 999 }), 404, /999/)
    expectError(await admin.get('/api/2/admin/users/get'), 400, /^invalid argument 'id'/)
    expectError(await admin.get('/api/1/admin/users/get'), 400, /^invalid argument 'uname'/)
    expectError(await admin.get('/api/2/admin/users/get', { id: 'x' }), 400, /^invalid argument 'id'/)
  })
})

describe('admin/users/create', () => {
  it.each(['', '/api/1'])('%s: admin=false gives the User role, admin=true the Administrator role; answers the user', async (prefix) => {
    const plain = await admin.post(`${prefix}/admin/users/create`, {
      uname: 'dave',
      password: 'pw1',
      fullname: 'Dave',
      phone: '123',
      admin: false
    })
    expect(plain.status).toBe(200)
    expect(plain.json).toMatchObject({ uname: 'dave', fullname: 'Dave', phone: '123', admin: false, password: md5('pw1') })
    expect(rolesOf('dave')).toEqual([USER])
    const boss = await admin.post(`${prefix}/admin/users/create`, { uname: 'erin', password: 'pw2', fullname: 'Erin', admin: true })
    expect(boss.json).toMatchObject({ uname: 'erin', admin: true })
    expect(rolesOf('erin')).toEqual([ADMINISTRATOR])
    await createV1('frank')
    expect(rolesOf('frank')).toEqual([USER])
    expect(await canLogIn('dave', 'pw1')).toBe(true)
  })

  it('api/2: roleid is required and repeatable; image is stored', async () => {
    const res = await createV2('gina', [COLLECTOR, USER], { image: 'g.png' })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ id: String(idOf('gina')), uname: 'gina', image: 'g.png', roles: [COLLECTOR, USER], admin: false })
    expect(await canLogIn('gina', 'gina-pw')).toBe(true)
    expectError(
      await admin.post('/api/2/admin/users/create', { uname: 'hank', password: 'x', fullname: 'Hank' }),
      400,
      /^invalid argument 'roleid': is required/
    )
    expectError(await createV2('hank', [USER, 77]), 400, /^invalid argument 'roleid': no role with id 77/)
    expect(server.store.users.findByName('hank')).toBeUndefined()
  })

  it.each(PREFIXES)('%s: 409 when the uname exists', async (prefix) => {
    const args = { uname: 'monit', password: 'x', fullname: 'X', roleid: USER }
    expectError(await admin.post(`${prefix}/admin/users/create`, args), 409, /monit/)
  })

  it.each([
    ['uname', { uname: '' }, /must not be empty/],
    ['uname', { uname: 'a:b' }, /':'/],
    ['uname', { uname: 'u'.repeat(65) }, /longer than 64/],
    ['password', { password: '' }, /must not be empty/],
    ['fullname', { fullname: undefined }, /is required/],
    ['admin', { admin: 'maybe' }, /true or false/]
  ])('400 naming %s when it is invalid', async (name, change, message) => {
    const args: Params = { uname: 'ivan', password: 'pw', fullname: 'Ivan' }
    for (const [k, v] of Object.entries(change)) {
      if (v === undefined) delete args[k]
      else args[k] = v
    }
    expectError(await admin.post('/api/1/admin/users/create', args), 400, new RegExp(`^invalid argument '${name}': .*${message.source}`))
  })
})

describe('admin/users/update', () => {
  const v1Update = (uname: string, extra: Params) => {
    const current = server.store.users.findByName(uname)!
    return admin.post('/api/1/admin/users/update', {
      uname,
      fullname: current.fullname,
      password: current.password_md5,
      oldpassword: current.password_md5,
      ...extra
    })
  }
  const v2Update = (uname: string, extra: Params) => {
    const current = server.store.users.findByName(uname)!
    return admin.post('/api/2/admin/users/update', {
      id: current.id,
      uname,
      fullname: current.fullname,
      password: current.password_sha256,
      roleid: server.store.users.roleIdsOf(current.id),
      ...extra
    })
  }

  it('api/1: the hash sent back keeps the password; other fields change, absent ones are kept', async () => {
    await createV1('judy', { email: 'j@example.com', title: 'Dev' })
    const res = await v1Update('judy', { fullname: 'Judy J', mobile: '777' })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      uname: 'judy',
      fullname: 'Judy J',
      mobile: '777',
      email: 'j@example.com',
      title: 'Dev',
      password: md5('judy-pw')
    })
    expect(await canLogIn('judy', 'judy-pw')).toBe(true)
  })

  it("a new password ends the user's other sessions; an unchanged one does not", async () => {
    await createV2('kate', [USER])
    const kate = await loginAs(server.baseUrl, 'kate', 'kate-pw')
    const isLoggedIn = async () => (await kate.get('/api/2/session/get')).headers['content-type'] !== 'text/html'
    expect((await v2Update('kate', { fullname: 'Kate K' })).status).toBe(200)
    expect(await isLoggedIn()).toBe(true)
    expect((await v2Update('kate', { password: 'new-kate-pw' })).status).toBe(200)
    expect(await isLoggedIn()).toBe(false)
    // The administrator's own session, which made the change, stays.
    expect((await admin.get('/api/2/session/get')).status).toBe(200)
    expect((await admin.get('/api/2/session/get')).headers['content-type']).toMatch(/json/)
  })

  it('api/1: a new clear-text password needs oldpassword to be the current hash', async () => {
    await createV1('kate')
    expectError(await v1Update('kate', { password: 'fresh', oldpassword: md5('wrong') }), 400, /^invalid argument 'oldpassword'/)
    expect(await canLogIn('kate', 'kate-pw')).toBe(true)
    expect((await v1Update('kate', { password: 'fresh', oldpassword: md5('kate-pw') })).json).toMatchObject({ password: md5('fresh') })
    expect(await canLogIn('kate', 'fresh')).toBe(true)
    expect(await canLogIn('kate', 'kate-pw')).toBe(false)
  })

  it('api/1: the admin flag grants and drops administrator rights; without it the roles stay', async () => {
    await createV2('liam', [COLLECTOR])
    expect((await v1Update('liam', { admin: true })).json).toMatchObject({ admin: true })
    expect(rolesOf('liam')).toEqual([ADMINISTRATOR, COLLECTOR])
    expect((await v1Update('liam', { fullname: 'Liam' })).json).toMatchObject({ admin: true })
    expect((await v1Update('liam', { admin: false })).json).toMatchObject({ admin: false })
    expect(rolesOf('liam')).toEqual([COLLECTOR])
    await createV2('mona', [ADMINISTRATOR])
    await v1Update('mona', { admin: false })
    expect(rolesOf('mona')).toEqual([USER])
  })

  it('api/1 and legacy: id picks the user, so a rename is possible; 409 on a taken name', async () => {
    await createV1('nina')
    const id = idOf('nina')
    const current = server.store.users.find(id)!
    const unchanged = { fullname: 'Nina', password: current.password_md5, oldpassword: current.password_md5 }
    expect((await admin.post('/admin/users/update', { ...unchanged, id, uname: 'nora' })).json).toMatchObject({
      id: String(id),
      uname: 'nora'
    })
    expectError(await admin.post('/api/1/admin/users/update', { ...unchanged, id, uname: 'monit' }), 409, /monit/)
    expectError(await admin.post('/api/1/admin/users/update', { ...unchanged, uname: 'ghost' }), 404, /ghost/)
  })

  it('api/2: the stored digest keeps the password, anything else replaces it; roles are replaced', async () => {
    await createV2('olga', [USER])
    expect((await v2Update('olga', { email: 'o@example.com', roleid: [COLLECTOR, USER] })).json).toMatchObject({
      email: 'o@example.com',
      roles: [COLLECTOR, USER]
    })
    expect(await canLogIn('olga', 'olga-pw')).toBe(true)
    await v2Update('olga', { password: 'n3w' })
    expect(await canLogIn('olga', 'n3w')).toBe(true)
    expect(await canLogIn('olga', 'olga-pw')).toBe(false)
  })

  it('api/2: rename, 409 on a taken name, 404 for an unknown id, 400 for a missing or unknown role', async () => {
    await createV2('pete', [USER])
    expect((await v2Update('pete', { uname: 'paul' })).json).toMatchObject({ uname: 'paul' })
    expectError(await v2Update('paul', { uname: 'admin' }), 409, /admin/)
    expectError(await v2Update('paul', { id: 999 }), 404, /999/)
    expectError(await v2Update('paul', { roleid: [42] }), 400, /^invalid argument 'roleid': no role with id 42/)
    const withoutRoles = { id: idOf('paul'), uname: 'paul', fullname: 'P', password: 'x' }
    expectError(await admin.post('/api/2/admin/users/update', withoutRoles), 400, /^invalid argument 'roleid': is required/)
  })

  it('a changed password stops working for /collector Basic auth at once', async () => {
    await createV2('agent', [COLLECTOR])
    expect(await collectorStatus('agent:agent-pw')).toBe(200)
    await v2Update('agent', { password: 'rotated' })
    expect(await collectorStatus('agent:agent-pw')).toBe(401)
    expect(await collectorStatus('agent:rotated')).toBe(200)
  })

  it('refuses to demote the last administrator, under either version', async () => {
    expectError(await v1Update('admin', { admin: false }), 400, /administrator/)
    expectError(await v2Update('admin', { roleid: [USER] }), 400, /administrator/)
    expect(rolesOf('admin')).toEqual([ADMINISTRATOR])
    expect((await admin.get('/api/2/admin/users/list')).status).toBe(200)
  })
})

describe('admin/users/delete', () => {
  it('api/1 by uname, api/2 by id, legacy by either; the user can no longer log in', async () => {
    for (const name of ['quin', 'rita', 'sam']) await createV1(name)
    expect((await admin.post('/api/1/admin/users/delete', { uname: 'quin' })).json).toStrictEqual({})
    expect((await admin.post('/api/2/admin/users/delete', { id: idOf('rita') })).status).toBe(200)
    expect((await admin.post('/admin/users/delete', { uname: 'sam' })).status).toBe(200)
    for (const name of ['quin', 'rita', 'sam']) expect(server.store.users.findByName(name)).toBeUndefined()
    expect(await canLogIn('quin', 'quin-pw')).toBe(false)
  })

  it('ends what the deleted user was doing: Basic auth fails at once', async () => {
    await createV2('bot', [COLLECTOR])
    expect(await collectorStatus('bot:bot-pw')).toBe(200)
    await admin.post('/api/2/admin/users/delete', { id: idOf('bot') })
    expect(await collectorStatus('bot:bot-pw')).toBe(401)
  })

  it('404 for an unknown user, 400 without a key', async () => {
    expectError(await admin.post('/api/1/admin/users/delete', { uname: 'ghost' }), 404, /ghost/)
    expectError(await admin.post('/api/2/admin/users/delete', { id: 999 }), 404, /999/)
    expectError(await admin.post('/api/2/admin/users/delete'), 400, /^invalid argument 'id'/)
  })

  it('refuses to delete the last administrator, but not one of two', async () => {
    expectError(await admin.post('/api/1/admin/users/delete', { uname: 'admin' }), 400, /administrator/)
    expect(server.store.users.findByName('admin')).toBeDefined()
    await createV1('tina', { admin: true })
    expect((await admin.post('/api/1/admin/users/delete', { uname: 'tina' })).status).toBe(200)
    await createV1('uma', { admin: true })
    expect((await admin.post('/api/1/admin/users/delete', { uname: 'admin' })).status).toBe(200)
    const uma = await loginAs(server.baseUrl, 'uma', 'uma-pw')
    expectError(await uma.post('/api/1/admin/users/delete', { uname: 'uma' }), 400, /administrator/)
  })
})

describe('access', () => {
  it.each(PREFIXES)('%s: GET on a mutation is 405', async (prefix) => {
    for (const op of ['create', 'update', 'delete']) {
      const res = await admin.get(`${prefix}/admin/users/${op}`, { uname: 'monit' })
      expectError(res, 405, /POST/)
      expect(res.headers.allow).toBe('POST')
    }
  })

  it.each(PREFIXES)('%s: 403 for a user who is not an administrator', async (prefix) => {
    await createV1('vera')
    const vera = await loginAs(server.baseUrl, 'vera', 'vera-pw')
    expectError(await vera.get(`${prefix}/admin/users/list`), 403, /administrator/)
    expectError(await vera.get(`${prefix}/admin/users/get`, { uname: 'admin' }), 403, /administrator/)
    expectError(await vera.post(`${prefix}/admin/users/delete`, { uname: 'admin' }), 403, /administrator/)
  })

  it('with CSRF protection on, a mutation needs the token', async () => {
    const client = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
    const args = { uname: 'walt', password: 'pw', fullname: 'Walt', roleid: USER }
    expectError(await client.post('/api/2/admin/users/create', args), 403, /CSRF/)
    expect(server.store.users.findByName('walt')).toBeUndefined()
    const res = await client.post('/api/2/admin/users/create', args, { CSRFToken: await client.csrfToken() })
    expect(res.status).toBe(200)
  })
})
