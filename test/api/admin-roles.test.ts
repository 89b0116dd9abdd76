// admin/roles/list|create|update|delete|adduser|removeuser|updateactive over real HTTP: the compat 6.11
// shape, the indexed row arguments, the protection of built-in roles and of the last administrator,
// and permissions that take effect on the very next request.
import { describe, expect, it } from 'vitest'
import { principalOf, mayOnHost } from '../../src/server/domain/permissions'
import { Permission } from '../../src/shared/codes'
import type { Role } from '../../src/shared/api/roles'
import { loginAs, PREFIXES, type ApiClient, type ApiResponse, type Params } from '../support/api-client'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import type { TestServer } from '../support/in-process-server'
import { serverForEachTest } from '../support/server-per-test'
import { addUser } from '../support/users'

const AGENT_A = 'a0000000000000000000000000000001'
const AGENT_B = 'b0000000000000000000000000000002'
const ADMINISTRATOR = 1
const COLLECTOR = 2
const USER = 3

let server: TestServer
let admin: ApiClient
let hostA: number
let hostB: number
/** A host group holding host B. */
let groupB: number

serverForEachTest(async (started) => {
  ;({ server, admin } = started)
  hostA = await server.addHost(AGENT_A, 'alpha')
  hostB = await server.addHost(AGENT_B, 'bravo')
  groupB = addGroup('bravo-group', [hostB])
})

/** Arguments to change in a valid request: undefined removes one. */
type Change = Record<string, Params[string] | undefined>

/** Host groups have their own endpoints; the table is written directly so these tests stand alone. */
function addGroup(name: string, hostIds: number[]): number {
  const sqlite = server.store.sql.plain
  const id = Number((sqlite.prepare('INSERT INTO host_group (name) VALUES (?) RETURNING id').get(name) as { id: number }).id)
  for (const hostId of hostIds) sqlite.prepare('INSERT INTO host_group_member (group_id, host_id) VALUES (?, ?)').run(id, hostId)
  return id
}

async function collect(agentId: string, auth: string): Promise<number> {
  return (await postCollector(server.baseUrl, asAgent(fixture('02-status-heartbeat'), agentId, `host-${agentId.slice(0, 1)}`), { auth }))
    .status
}

function addRoleUser(uname: string, roleIds: number[] = []): number {
  return addUser(server.store, { uname, password: `${uname}-pw`, fullname: uname, roleIds })
}

const userId = (uname: string) => server.store.users.findByName(uname)!.id

async function roles(prefix = '/api/2'): Promise<Role[]> {
  const res = await admin.get(`${prefix}/admin/roles/list`)
  expect(res.status).toBe(200)
  return res.json as Role[]
}

async function role(id: number): Promise<Role | undefined> {
  return (await roles()).find((r) => r.id === id)
}

async function createRole(args: Params): Promise<number> {
  const res = await admin.post('/api/2/admin/roles/create', { admin: false, active: true, ...args })
  expect(res.status, res.text).toBe(200)
  return (res.json as { id: number }).id
}

function expectError(res: ApiResponse, status: number, message: RegExp): void {
  expect(res.status).toBe(status)
  expect((res.json as { error: string }).error).toMatch(message)
}

/** What the user may do on a host, from the same grants the session and Basic-auth caches read. */
function mayView(uid: number, hostId: number): boolean {
  return mayOnHost(principalOf({ id: uid, uname: '' }, server.store.users.grantsOf(uid)), hostId, Permission.View)
}

describe('admin/roles/list (compat 6.11)', () => {
  it.each(PREFIXES)('%s: the built-in roles with rows, permission bits as text and member ids as text', async (prefix) => {
    expect(await roles(prefix)).toStrictEqual([
      {
        id: ADMINISTRATOR,
        name: 'Administrator',
        description: 'Full access to every host and to administration',
        admin: true,
        active: true,
        buildin: true,
        rolerows: [],
        members: { users: [String(userId('admin'))] }
      },
      {
        id: COLLECTOR,
        name: 'Collector',
        description: 'Monit agents: may post to /collector for every host',
        admin: false,
        active: true,
        buildin: true,
        rolerows: [{ hosts: [], hostgroups: [], permission: ['1'] }],
        members: { users: [String(userId('monit'))] }
      },
      {
        id: USER,
        name: 'User',
        description: 'Views every host and runs service actions',
        admin: false,
        active: true,
        buildin: false,
        rolerows: [{ hosts: [], hostgroups: [], permission: ['2', '4'] }],
        members: { users: [] }
      }
    ])
  })
})

describe('admin/roles/create', () => {
  it.each(PREFIXES)('%s: indexed rows with repeatable hosts, groups, permission bits and members', async (prefix) => {
    const ann = addRoleUser('ann')
    const bob = addRoleUser('bob')
    const res = await admin.post(`${prefix}/admin/roles/create`, {
      name: 'Operators',
      description: 'Ops team',
      admin: false,
      active: true,
      rolerowscount: 3,
      hosts0: [hostA, hostB],
      permission0: 2,
      hostgroups1: groupB,
      permission1: [1, 4],
      userid0: ann,
      userid1: bob
    })
    expect(res.status).toBe(200)
    const { id } = res.json as { id: number }
    expect(Object.keys(res.json as object)).toEqual(['id'])
    expect(await role(id)).toStrictEqual({
      id,
      name: 'Operators',
      description: 'Ops team',
      admin: false,
      active: true,
      buildin: false,
      rolerows: [
        { hosts: [hostA, hostB], hostgroups: [], permission: ['2'] },
        { hosts: [], hostgroups: [groupB], permission: ['1', '4'] },
        { hosts: [], hostgroups: [], permission: [] }
      ],
      members: { users: [String(ann), String(bob)] }
    })
  })

  it('accepts rows without rolerowscount, and permissionsN as an alias', async () => {
    const id = await createRole({ name: 'Watchers', hosts1: hostB, permissions1: 6, hosts0: hostA, permissions0: [2, 2] })
    expect((await role(id))!.rolerows).toEqual([
      { hosts: [hostA], hostgroups: [], permission: ['2'] },
      { hosts: [hostB], hostgroups: [], permission: ['2', '4'] }
    ])
    expect((await role(id))!.description).toBe('')
  })

  it.each<[string, Change | (() => Change), RegExp]>([
    ['name', { name: undefined }, /is required/],
    ['admin', { admin: 'maybe' }, /true or false/],
    ['active', { active: undefined }, /is required/],
    ['rolerowscount', { rolerowscount: -1 }, /0 to 1000/],
    ['hosts0', () => ({ hosts0: [hostA, 9999] }), /no host with id 9999/],
    ['hosts0', { hosts0: 'x' }, /whole number/],
    ['hostgroups2', { hostgroups2: 555 }, /no host group with id 555/],
    ['userid0', { userid0: 777 }, /no user with id 777/],
    ['permission0', { permission0: 8 }, /permission bitmap/],
    ['permissions0', { permissions0: -1 }, /permission bitmap/]
  ])('400 naming %s when it is invalid, creating nothing', async (name, change, message) => {
    const args: Params = { name: 'Broken', admin: false, active: true }
    for (const [k, v] of Object.entries(typeof change === 'function' ? change() : change)) {
      if (v === undefined) delete args[k]
      else args[k] = v
    }
    expectError(await admin.post('/api/2/admin/roles/create', args), 400, new RegExp(`^invalid argument '${name}': .*${message.source}`))
    expect((await roles()).map((r) => r.name)).not.toContain('Broken')
  })

  it('409 on a name in use', async () => {
    expectError(await admin.post('/api/2/admin/roles/create', { name: 'Collector', admin: false, active: true }), 409, /Collector/)
  })
})

describe('admin/roles/update', () => {
  it('replaces description, flags and every row; members stay unless a useridN is sent', async () => {
    const cat = addRoleUser('cat')
    const dan = addRoleUser('dan')
    const id = await createRole({ name: 'Team', description: 'before', hosts0: hostA, permission0: 2, userid0: cat })
    const res = await admin.post('/api/2/admin/roles/update', {
      id,
      name: 'Team B',
      description: 'after',
      admin: false,
      active: false,
      hostgroups0: groupB,
      permission0: 6
    })
    expect(res.status).toBe(200)
    expect(await role(id)).toMatchObject({
      name: 'Team B',
      description: 'after',
      active: false,
      rolerows: [{ hosts: [], hostgroups: [groupB], permission: ['2', '4'] }],
      members: { users: [String(cat)] }
    })
    await admin.post('/admin/roles/update', { id, name: 'Team B', admin: false, active: true, userid0: [dan], userid3: cat })
    expect(await role(id)).toMatchObject({ description: 'after', rolerows: [], members: { users: [String(cat), String(dan)] } })
    await admin.post('/api/1/admin/roles/update', { id, name: 'Team B', admin: false, active: true, userid0: '' })
    expect((await role(id))!.members.users).toEqual([])
  })

  it('404 for an unknown role, 409 for a name in use, 400 for a bad row', async () => {
    const id = await createRole({ name: 'Mine' })
    const args = { id, name: 'Mine', admin: false, active: true }
    expectError(await admin.post('/api/2/admin/roles/update', { ...args, id: 999 }), 404, /999/)
    expectError(await admin.post('/api/2/admin/roles/update', { ...args, name: 'User' }), 409, /User/)
    expectError(await admin.post('/api/2/admin/roles/update', { ...args, hosts0: 4242 }), 400, /^invalid argument 'hosts0'/)
    expectError(await admin.post('/api/2/admin/roles/update', { name: 'Mine', admin: false, active: true }), 400, /^invalid argument 'id'/)
  })

  it('built-in roles keep their names; the Administrator role stays an active administrator role', async () => {
    const administrator = { id: ADMINISTRATOR, name: 'Administrator', admin: true, active: true }
    expectError(
      await admin.post('/api/2/admin/roles/update', { ...administrator, name: 'Root' }),
      400,
      /^invalid argument 'name': .*built-in/
    )
    expectError(await admin.post('/api/2/admin/roles/update', { ...administrator, admin: false }), 400, /^invalid argument 'admin'/)
    expectError(await admin.post('/api/2/admin/roles/update', { ...administrator, active: false }), 400, /^invalid argument 'active'/)
    expectError(
      await admin.post('/api/2/admin/roles/update', { id: COLLECTOR, name: 'Agents', admin: false, active: true }),
      400,
      /built-in/
    )
    expect((await admin.post('/api/2/admin/roles/update', { ...administrator, description: 'Root access' })).status).toBe(200)
    expect((await role(ADMINISTRATOR))!.description).toBe('Root access')
    // The User role is not built in: it may be renamed.
    expect((await admin.post('/api/2/admin/roles/update', { id: USER, name: 'Viewer', admin: false, active: true })).status).toBe(200)
  })

  it('refuses to take the last administrator out of a custom admin role', async () => {
    const eve = addRoleUser('eve')
    const custom = await createRole({ name: 'Admins', admin: true, userid0: eve })
    await admin.post('/api/2/admin/roles/removeuser', { id: ADMINISTRATOR, userid: userId('admin') })
    expect(server.store.users.isAdmin(userId('admin'))).toBe(false)
    const eveClient = await loginAs(server.baseUrl, 'eve', 'eve-pw')
    const args = { id: custom, name: 'Admins', admin: true, active: true }
    expectError(await eveClient.post('/api/2/admin/roles/update', { ...args, admin: false }), 400, /administrator/)
    expectError(await eveClient.post('/api/2/admin/roles/update', { ...args, active: false }), 400, /administrator/)
    expectError(await eveClient.post('/api/2/admin/roles/update', { ...args, userid0: '' }), 400, /administrator/)
    expectError(await eveClient.post('/api/2/admin/roles/delete', { id: custom }), 400, /administrator/)
    expectError(await eveClient.post('/api/2/admin/roles/updateactive', { id: custom, active: false }), 400, /administrator/)
    const list = (await eveClient.get('/api/2/admin/roles/list')).json as Role[]
    expect(list.find((r) => r.id === custom)).toMatchObject({ admin: true, active: true, members: { users: [String(eve)] } })
  })
})

describe('admin/roles/delete', () => {
  it.each(PREFIXES)('%s: deletes a custom role and its memberships', async (prefix) => {
    const fay = addRoleUser('fay')
    const id = await createRole({ name: 'Temp', hosts0: hostA, permission0: 2, userid0: fay })
    expect(mayView(fay, hostA)).toBe(true)
    expect((await admin.post(`${prefix}/admin/roles/delete`, { id })).json).toStrictEqual({})
    expect(await role(id)).toBeUndefined()
    expect(server.store.users.roleIdsOf(fay)).toEqual([])
    expect(mayView(fay, hostA)).toBe(false)
  })

  it('400 for a built-in role, 404 for an unknown one', async () => {
    for (const id of [ADMINISTRATOR, COLLECTOR]) {
      expectError(await admin.post('/api/2/admin/roles/delete', { id }), 400, /^built-in role cannot be deleted$/)
    }
    expectError(await admin.post('/api/2/admin/roles/delete', { id: 999 }), 404, /999/)
    expect((await roles()).map((r) => r.id)).toEqual([ADMINISTRATOR, COLLECTOR, USER])
  })
})

describe('admin/roles/adduser and removeuser', () => {
  it.each(PREFIXES)('%s: userid is repeatable; adding twice and removing a non-member are harmless', async (prefix) => {
    const gus = addRoleUser('gus')
    const hal = addRoleUser('hal')
    const id = await createRole({ name: 'Crew' })
    expect((await admin.post(`${prefix}/admin/roles/adduser`, { id, userid: [gus, hal] })).status).toBe(200)
    expect((await admin.post(`${prefix}/admin/roles/adduser`, { id, userid: gus })).status).toBe(200)
    expect((await role(id))!.members.users).toEqual([String(gus), String(hal)])
    expect((await admin.post(`${prefix}/admin/roles/removeuser`, { id, userid: [gus, userId('admin')] })).status).toBe(200)
    expect((await role(id))!.members.users).toEqual([String(hal)])
  })

  it('400 naming userid for a missing or unknown user, 404 for an unknown role', async () => {
    const id = await createRole({ name: 'Crew' })
    for (const op of ['adduser', 'removeuser']) {
      expectError(await admin.post(`/api/2/admin/roles/${op}`, { id }), 400, /^invalid argument 'userid': is required/)
      expectError(await admin.post(`/api/2/admin/roles/${op}`, { id, userid: 999 }), 400, /^invalid argument 'userid': no user with id 999/)
      expectError(await admin.post(`/api/2/admin/roles/${op}`, { id: 999, userid: userId('admin') }), 404, /999/)
    }
  })

  it('refuses to remove the last administrator from the Administrator role', async () => {
    expectError(await admin.post('/api/2/admin/roles/removeuser', { id: ADMINISTRATOR, userid: userId('admin') }), 400, /administrator/)
    expect(server.store.users.isAdmin(userId('admin'))).toBe(true)
  })
})

describe('admin/roles/updateactive', () => {
  it.each(PREFIXES)('%s: switches a role off and on', async (prefix) => {
    const ivy = addRoleUser('ivy')
    const id = await createRole({ name: 'Seers', hosts0: hostB, permission0: 2, userid0: ivy })
    expect((await admin.post(`${prefix}/admin/roles/updateactive`, { id, active: false })).json).toStrictEqual({})
    expect(await role(id)).toMatchObject({ active: false })
    expect(mayView(ivy, hostB)).toBe(false)
    await admin.post(`${prefix}/admin/roles/updateactive`, { id, active: true })
    expect(mayView(ivy, hostB)).toBe(true)
  })

  it('400 for the Administrator role, 404 for an unknown role, 400 for a bad flag', async () => {
    expectError(
      await admin.post('/api/2/admin/roles/updateactive', { id: ADMINISTRATOR, active: false }),
      400,
      /^invalid argument 'active'/
    )
    expect((await admin.post('/api/2/admin/roles/updateactive', { id: ADMINISTRATOR, active: true })).status).toBe(200)
    expectError(await admin.post('/api/2/admin/roles/updateactive', { id: 999, active: true }), 404, /999/)
    expectError(await admin.post('/api/2/admin/roles/updateactive', { id: USER, active: 'sometimes' }), 400, /^invalid argument 'active'/)
  })
})

describe('permissions take effect immediately', () => {
  it('view on host A only, then the collector bit admits posts for host A but not host B', async () => {
    const jo = addRoleUser('jo')
    const id = await createRole({ name: 'A-only', hosts0: hostA, permission0: Permission.View, userid0: jo })
    expect(mayView(jo, hostA)).toBe(true)
    expect(mayView(jo, hostB)).toBe(false)
    expect(await collect(AGENT_A, 'jo:jo-pw')).toBe(403)

    const update = { id, name: 'A-only', admin: false, active: true, hosts0: hostA }
    await admin.post('/api/2/admin/roles/update', { ...update, permission0: [Permission.View, Permission.Collector] })
    expect(await collect(AGENT_A, 'jo:jo-pw')).toBe(200)
    expect(await collect(AGENT_B, 'jo:jo-pw')).toBe(403)

    await admin.post('/api/2/admin/roles/updateactive', { id, active: false })
    expect(await collect(AGENT_A, 'jo:jo-pw')).toBe(403)
  })

  it('group rows reach the hosts of the group; removing the member revokes them', async () => {
    const kim = addRoleUser('kim')
    const id = await createRole({ name: 'Group B', hostgroups0: groupB, permission0: 3 })
    await admin.post('/api/2/admin/roles/adduser', { id, userid: kim })
    expect(mayView(kim, hostB)).toBe(true)
    expect(mayView(kim, hostA)).toBe(false)
    expect(await collect(AGENT_B, 'kim:kim-pw')).toBe(200)
    await admin.post('/api/2/admin/roles/removeuser', { id, userid: kim })
    expect(mayView(kim, hostB)).toBe(false)
    expect(await collect(AGENT_B, 'kim:kim-pw')).toBe(403)
  })
})

describe('access', () => {
  it.each(PREFIXES)('%s: GET on a mutation is 405', async (prefix) => {
    for (const op of ['create', 'update', 'delete', 'adduser', 'removeuser', 'updateactive']) {
      const res = await admin.get(`${prefix}/admin/roles/${op}`, { id: USER })
      expectError(res, 405, /POST/)
    }
  })

  it.each(PREFIXES)('%s: 403 for a user who is not an administrator', async (prefix) => {
    addRoleUser('lou', [USER])
    const lou = await loginAs(server.baseUrl, 'lou', 'lou-pw')
    expectError(await lou.get(`${prefix}/admin/roles/list`), 403, /administrator/)
    expectError(await lou.post(`${prefix}/admin/roles/create`, { name: 'Mine', admin: true, active: true }), 403, /administrator/)
    expectError(await lou.post(`${prefix}/admin/roles/adduser`, { id: ADMINISTRATOR, userid: userId('lou') }), 403, /administrator/)
    expect(server.store.users.isAdmin(userId('lou'))).toBe(false)
  })

  it('with CSRF protection on, a mutation needs the token', async () => {
    const client = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
    const args = { name: 'Guarded', admin: false, active: true }
    expectError(await client.post('/api/2/admin/roles/create', args), 403, /CSRF/)
    expect((await client.post('/api/2/admin/roles/create', args, { CSRFToken: await client.csrfToken() })).status).toBe(200)
    expect((await client.post('/api/2/admin/roles/list')).status).toBe(200)
  })
})
