// admin/users/list|get|create|update|delete over real HTTP: the shapes of each version, the password
// rules of both (a token, never a digest, stands for the current password), the minimum length, the
// unsafe flag, the last-administrator guard, and credentials that stop working the moment they change.
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
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const tokenOf = (uname: string) => server.store.users.findByName(uname)!.password_token
const idOf = (uname: string) => server.store.users.findByName(uname)!.id
const rolesOf = (uname: string) => server.store.users.roleIdsOf(idOf(uname))

function expectError(res: ApiResponse, status: number, message: RegExp): void {
  expect(res.status).toBe(status)
  expect(res.headers['content-type']).toMatch(/^application\/json/)
  expect((res.json as { error: string }).error).toMatch(message)
}

async function createV1(uname: string, extra: Params = {}): Promise<ApiResponse> {
  return admin.post('/api/1/admin/users/create', { uname, password: `${uname}-secret`, fullname: `Full ${uname}`, ...extra })
}

async function createV2(uname: string, roleid: number[], extra: Params = {}): Promise<ApiResponse> {
  return admin.post('/api/2/admin/users/create', { uname, password: `${uname}-secret`, fullname: `Full ${uname}`, roleid, ...extra })
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
  it('api/1 by uname: every v1 field, the password token (not its MD5) and the admin flag', async () => {
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
      password: tokenOf('admin')
    })
    expect(tokenOf('admin')).toMatch(/^[0-9a-f]{32}$/)
    expect(tokenOf('admin')).not.toBe(md5('adminsecret'))
  })

  it('api/2 by id: the id as a string, the password token and the role ids', async () => {
    const id = idOf('monit')
    const res = await admin.get('/api/2/admin/users/get', { id })
    expect(res.json).toMatchObject({
      id: String(id),
      uname: 'monit',
      fullname: 'Monit collector',
      admin: false,
      password: tokenOf('monit'),
      roles: [COLLECTOR]
    })
  })

  it('legacy: the v1 shape plus id and roles', async () => {
    const res = await admin.get('/admin/users/get', { uname: 'admin' })
    expect(res.json).toMatchObject({
      id: String(idOf('admin')),
      uname: 'admin',
      password: tokenOf('admin'),
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
      password: 'dave-pass-1',
      fullname: 'Dave',
      phone: '123',
      admin: false
    })
    expect(plain.status).toBe(200)
    expect(plain.json).toMatchObject({ uname: 'dave', fullname: 'Dave', phone: '123', admin: false, password: tokenOf('dave') })
    expect(rolesOf('dave')).toEqual([USER])
    const boss = await admin.post(`${prefix}/admin/users/create`, { uname: 'erin', password: 'erin-pass-2', fullname: 'Erin', admin: true })
    expect(boss.json).toMatchObject({ uname: 'erin', admin: true })
    expect(rolesOf('erin')).toEqual([ADMINISTRATOR])
    await createV1('frank')
    expect(rolesOf('frank')).toEqual([USER])
    expect(await canLogIn('dave', 'dave-pass-1')).toBe(true)
  })

  it('api/2: roleid is required and repeatable; image is stored', async () => {
    const res = await createV2('gina', [COLLECTOR, USER], { image: 'g.png' })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ id: String(idOf('gina')), uname: 'gina', image: 'g.png', roles: [COLLECTOR, USER], admin: false })
    expect(await canLogIn('gina', 'gina-secret')).toBe(true)
    expectError(
      await admin.post('/api/2/admin/users/create', { uname: 'hank', password: 'hank-secret', fullname: 'Hank' }),
      400,
      /^invalid argument 'roleid': is required/
    )
    expectError(await createV2('hank', [USER, 77]), 400, /^invalid argument 'roleid': no role with id 77/)
    expect(server.store.users.findByName('hank')).toBeUndefined()
  })

  it.each(PREFIXES)('%s: 409 when the uname exists', async (prefix) => {
    const args = { uname: 'monit', password: 'monit-secret', fullname: 'X', roleid: USER }
    expectError(await admin.post(`${prefix}/admin/users/create`, args), 409, /monit/)
  })

  it.each([
    ['uname', { uname: '' }, /must not be empty/],
    ['uname', { uname: 'a:b' }, /':'/],
    ['uname', { uname: 'u'.repeat(65) }, /longer than 64/],
    ['password', { password: '' }, /must not be empty/],
    ['password', { password: 'seven77' }, /must be at least 8 characters/],
    ['fullname', { fullname: undefined }, /is required/],
    ['admin', { admin: 'maybe' }, /true or false/]
  ])('400 naming %s when it is invalid', async (name, change, message) => {
    const args: Params = { uname: 'ivan', password: 'ivan-secret', fullname: 'Ivan' }
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
      password: current.password_token,
      oldpassword: current.password_token,
      ...extra
    })
  }
  const v2Update = (uname: string, extra: Params) => {
    const current = server.store.users.findByName(uname)!
    return admin.post('/api/2/admin/users/update', {
      id: current.id,
      uname,
      fullname: current.fullname,
      password: current.password_token,
      roleid: server.store.users.roleIdsOf(current.id),
      ...extra
    })
  }

  it('api/1: the token sent back keeps the password; other fields change, absent ones are kept', async () => {
    await createV1('judy', { email: 'j@example.com', title: 'Dev' })
    const token = tokenOf('judy')
    const res = await v1Update('judy', { fullname: 'Judy J', mobile: '777' })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      uname: 'judy',
      fullname: 'Judy J',
      mobile: '777',
      email: 'j@example.com',
      title: 'Dev',
      password: token
    })
    expect(await canLogIn('judy', 'judy-secret')).toBe(true)
  })

  it("a new password ends the user's other sessions; an unchanged one does not", async () => {
    await createV2('kate', [USER])
    const kate = await loginAs(server.baseUrl, 'kate', 'kate-secret')
    const isLoggedIn = async () => (await kate.get('/api/2/session/get')).headers['content-type'] !== 'text/html'
    expect((await v2Update('kate', { fullname: 'Kate K' })).status).toBe(200)
    expect(await isLoggedIn()).toBe(true)
    expect((await v2Update('kate', { password: 'new-kate-pw' })).status).toBe(200)
    expect(await isLoggedIn()).toBe(false)
    // The administrator's own session, which made the change, stays.
    expect((await admin.get('/api/2/session/get')).status).toBe(200)
    expect((await admin.get('/api/2/session/get')).headers['content-type']).toMatch(/json/)
  })

  it('api/1: a new clear-text password needs oldpassword to be the current token; a new token comes with it', async () => {
    await createV1('kate')
    const token = tokenOf('kate')
    expectError(await v1Update('kate', { password: 'fresh-pass', oldpassword: md5('wrong') }), 400, /^invalid argument 'oldpassword'/)
    // The MD5 M/Monit would have handed out is no key to the password any more.
    expectError(await v1Update('kate', { password: 'fresh-pass', oldpassword: md5('kate-secret') }), 400, /^invalid argument 'oldpassword'/)
    expect(await canLogIn('kate', 'kate-secret')).toBe(true)
    const changed = await v1Update('kate', { password: 'fresh-pass', oldpassword: token })
    expect(changed.status).toBe(200)
    expect(tokenOf('kate')).not.toBe(token)
    expect(changed.json).toMatchObject({ password: tokenOf('kate') })
    expect(await canLogIn('kate', 'fresh-pass')).toBe(true)
    expect(await canLogIn('kate', 'kate-secret')).toBe(false)
  })

  it('as M/Monit clients do it: what get answered, sent back, keeps the password (api/1 and legacy as oldpassword, api/2 as password)', async () => {
    await createV1('ruth')
    for (const prefix of ['/api/1', '']) {
      const got = (await admin.get(`${prefix}/admin/users/get`, { uname: 'ruth' })).json as { password: string; fullname: string }
      const res = await admin.post(`${prefix}/admin/users/update`, {
        uname: 'ruth',
        fullname: `${got.fullname}!`,
        password: got.password,
        oldpassword: got.password
      })
      expect(res.status).toBe(200)
      expect(await canLogIn('ruth', 'ruth-secret')).toBe(true)
      const changed = await admin.post(`${prefix}/admin/users/update`, {
        uname: 'ruth',
        fullname: 'Ruth',
        password: `ruth-secret-${prefix.length}`,
        oldpassword: got.password
      })
      expect(changed.status).toBe(200)
      expect(await canLogIn('ruth', `ruth-secret-${prefix.length}`)).toBe(true)
      await admin.post(`${prefix}/admin/users/update`, {
        uname: 'ruth',
        fullname: 'Ruth',
        password: 'ruth-secret',
        oldpassword: (changed.json as { password: string }).password
      })
    }
    const id = idOf('ruth')
    const got = (await admin.get('/api/2/admin/users/get', { id })).json as { password: string; roles: number[] }
    const res = await admin.post('/api/2/admin/users/update', {
      id,
      uname: 'ruth',
      fullname: 'Ruth R',
      password: got.password,
      roleid: got.roles
    })
    expect(res.status).toBe(200)
    expect(await canLogIn('ruth', 'ruth-secret')).toBe(true)
    expect(await canLogIn('ruth', got.password)).toBe(false)
  })

  it('the token stays while the password does, through logins that rehash it', async () => {
    await createV2('lena', [USER])
    const token = tokenOf('lena')
    const read = async () => ((await admin.get('/api/2/admin/users/get', { id: idOf('lena') })).json as { password: string }).password
    expect(await read()).toBe(token)
    expect(await canLogIn('lena', 'lena-secret')).toBe(true)
    expect(await read()).toBe(token)
    expect((await v2Update('lena', { fullname: 'Lena L' })).status).toBe(200)
    expect(await read()).toBe(token)
    expect(await canLogIn('lena', 'lena-secret')).toBe(true)
  })

  it.each([
    ['api/1', '/api/1'],
    ['legacy', '']
  ])('%s: a new password shorter than 8 characters is refused with 400; the old one stays', async (_, prefix) => {
    await createV1('mick')
    const res = await admin.post(`${prefix}/admin/users/update`, {
      uname: 'mick',
      fullname: 'Mick',
      password: 'short',
      oldpassword: tokenOf('mick')
    })
    expectError(res, 400, /^invalid argument 'password': must be at least 8 characters/)
    expect(await canLogIn('mick', 'mick-secret')).toBe(true)
  })

  it('api/2: a new password shorter than 8 characters is refused with 400; the old one stays', async () => {
    await createV2('nell', [USER])
    expectError(await v2Update('nell', { password: 'short' }), 400, /^invalid argument 'password': must be at least 8 characters/)
    expect(await canLogIn('nell', 'nell-secret')).toBe(true)
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
    const unchanged = { fullname: 'Nina', password: current.password_token, oldpassword: current.password_token }
    expect((await admin.post('/admin/users/update', { ...unchanged, id, uname: 'nora' })).json).toMatchObject({
      id: String(id),
      uname: 'nora'
    })
    expectError(await admin.post('/api/1/admin/users/update', { ...unchanged, id, uname: 'monit' }), 409, /monit/)
    expectError(await admin.post('/api/1/admin/users/update', { ...unchanged, uname: 'ghost' }), 404, /ghost/)
  })

  it('api/2: the token keeps the password, anything else replaces it; roles are replaced', async () => {
    await createV2('olga', [USER])
    expect((await v2Update('olga', { email: 'o@example.com', roleid: [COLLECTOR, USER] })).json).toMatchObject({
      email: 'o@example.com',
      roles: [COLLECTOR, USER]
    })
    expect(await canLogIn('olga', 'olga-secret')).toBe(true)
    // The SHA-256 M/Monit would have handed out is a new password like any other string.
    await v2Update('olga', { password: sha256('olga-secret') })
    expect(await canLogIn('olga', sha256('olga-secret'))).toBe(true)
    await v2Update('olga', { password: 'olga-new-pw' })
    expect(await canLogIn('olga', 'olga-new-pw')).toBe(true)
    expect(await canLogIn('olga', 'olga-secret')).toBe(false)
  })

  it('api/2: rename, 409 on a taken name, 404 for an unknown id, 400 for a missing or unknown role', async () => {
    await createV2('pete', [USER])
    expect((await v2Update('pete', { uname: 'paul' })).json).toMatchObject({ uname: 'paul' })
    expectError(await v2Update('paul', { uname: 'admin' }), 409, /admin/)
    expectError(await v2Update('paul', { id: 999 }), 404, /999/)
    expectError(await v2Update('paul', { roleid: [42] }), 400, /^invalid argument 'roleid': no role with id 42/)
    const withoutRoles = { id: idOf('paul'), uname: 'paul', fullname: 'P', password: 'paul-secret' }
    expectError(await admin.post('/api/2/admin/users/update', withoutRoles), 400, /^invalid argument 'roleid': is required/)
  })

  it('a changed password stops working for /collector Basic auth at once', async () => {
    await createV2('agent', [COLLECTOR])
    expect(await collectorStatus('agent:agent-secret')).toBe(200)
    await v2Update('agent', { password: 'rotated-pw' })
    expect(await collectorStatus('agent:agent-secret')).toBe(401)
    expect(await collectorStatus('agent:rotated-pw')).toBe(200)
  })

  it('refuses to demote the last administrator, under either version', async () => {
    expectError(await v1Update('admin', { admin: false }), 400, /administrator/)
    expectError(await v2Update('admin', { roleid: [USER] }), 400, /administrator/)
    expect(rolesOf('admin')).toEqual([ADMINISTRATOR])
    expect((await admin.get('/api/2/admin/users/list')).status).toBe(200)
  })
})

describe('unsafepassword (admin/users/list, api/2 and legacy)', () => {
  const flags = async (prefix: string) =>
    Object.fromEntries(
      ((await admin.get(`${prefix}/admin/users/list`)).json as { uname: string; unsafepassword: number }[]).map((u) => [
        u.uname,
        u.unsafepassword
      ])
    )

  it("is 1 for M/Monit's default password and for the user's own name, 0 for others; a new password sets it anew", async () => {
    await createV2('fish', [USER], { password: 'swordfish' })
    await createV2('mallory1', [USER], { password: 'MALLORY1' })
    await createV1('strong')
    for (const prefix of ['', '/api/2']) expect(await flags(prefix)).toMatchObject({ fish: 1, mallory1: 1, strong: 0, admin: 0 })
    const fish = server.store.users.findByName('fish')!
    const change = { id: fish.id, uname: 'fish', fullname: 'Fish', roleid: USER, password: 'a-long-new-secret' }
    expect((await admin.post('/api/2/admin/users/update', change)).status).toBe(200)
    expect(await flags('/api/2')).toMatchObject({ fish: 0 })
    expect((await admin.post('/api/2/admin/users/update', { ...change, password: 'Password' })).status).toBe(200)
    expect(await flags('/api/2')).toMatchObject({ fish: 1 })
  })

  it('api/2 create: a password shorter than 8 characters is refused with 400 and no user is made', async () => {
    expectError(await createV2('tiny', [USER], { password: 'short' }), 400, /^invalid argument 'password': must be at least 8 characters/)
    expect(server.store.users.findByName('tiny')).toBeUndefined()
  })
})

describe('admin/users/delete', () => {
  it('api/1 by uname, api/2 by id, legacy by either; the user can no longer log in', async () => {
    for (const name of ['quin', 'rita', 'sam']) await createV1(name)
    expect((await admin.post('/api/1/admin/users/delete', { uname: 'quin' })).json).toStrictEqual({})
    expect((await admin.post('/api/2/admin/users/delete', { id: idOf('rita') })).status).toBe(200)
    expect((await admin.post('/admin/users/delete', { uname: 'sam' })).status).toBe(200)
    for (const name of ['quin', 'rita', 'sam']) expect(server.store.users.findByName(name)).toBeUndefined()
    expect(await canLogIn('quin', 'quin-secret')).toBe(false)
  })

  it('ends what the deleted user was doing: Basic auth fails at once', async () => {
    await createV2('bot', [COLLECTOR])
    expect(await collectorStatus('bot:bot-secret')).toBe(200)
    await admin.post('/api/2/admin/users/delete', { id: idOf('bot') })
    expect(await collectorStatus('bot:bot-secret')).toBe(401)
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
    const uma = await loginAs(server.baseUrl, 'uma', 'uma-secret')
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
    const vera = await loginAs(server.baseUrl, 'vera', 'vera-secret')
    expectError(await vera.get(`${prefix}/admin/users/list`), 403, /administrator/)
    expectError(await vera.get(`${prefix}/admin/users/get`, { uname: 'admin' }), 403, /administrator/)
    expectError(await vera.post(`${prefix}/admin/users/delete`, { uname: 'admin' }), 403, /administrator/)
  })

  it('with CSRF protection on, a mutation needs the token', async () => {
    const client = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
    const args = { uname: 'walt', password: 'walt-secret', fullname: 'Walt', roleid: USER }
    expectError(await client.post('/api/2/admin/users/create', args), 403, /CSRF/)
    expect(server.store.users.findByName('walt')).toBeUndefined()
    const res = await client.post('/api/2/admin/users/create', args, { CSRFToken: await client.csrfToken() })
    expect(res.status).toBe(200)
  })
})
