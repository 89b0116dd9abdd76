// admin/groups/list|create|update|delete|add|remove|declared over real HTTP, with hosts created by real
// collector posts, some from agents declaring host groups (Monit 5.34+ `with hostgroups`).
import { describe, expect, it } from 'vitest'
import { loginAs, PREFIXES, type ApiClient, type ApiResponse } from '../support/api-client'
import type { TestServer } from '../support/in-process-server'
import { serverForEachTest } from '../support/server-per-test'
import { addUser, addUserWith } from '../support/users'
import { capturedLog } from '../support/captured-log'
import { MAX_HOST_GROUPS } from '../../src/server/monit/message-limits'
import { asAgent, fixture } from '../support/fixtures'
import { hostOfAgent } from '../support/hosts'
import { shiftTime, withHostGroups } from '../support/payloads'
import { Permission } from '../../src/shared/codes'

let server: TestServer
let admin: ApiClient
let alpha: number
let bravo: number

const captured = capturedLog()

serverForEachTest(
  async (started) => {
    ;({ server, admin } = started)
    alpha = await server.addHost('a0000000000000000000000000000001', 'alpha')
    bravo = await server.addHost('b0000000000000000000000000000002', 'bravo')
  },
  { log: captured.log }
)

async function createGroup(name: string): Promise<number> {
  const res = await admin.post('/api/2/admin/groups/create', { name })
  expect(res.status).toBe(200)
  return (res.json as { id: number }).id
}

function groupList(prefix = '/api/2'): Promise<ApiResponse> {
  return admin.get(`${prefix}/admin/groups/list`)
}

describe('admin/groups/list', () => {
  it('answers exactly {hosts, groups} under every prefix, every host named by its hostname', async () => {
    const web = await createGroup('web servers')
    await createGroup('empty')
    await admin.post('/api/2/admin/groups/add', { id: web, hostid: [bravo, alpha] })
    for (const prefix of PREFIXES) {
      const res = await groupList(prefix)
      expect(res.status).toBe(200)
      expect(res.text.startsWith('{')).toBe(true)
      expect(res.json).toStrictEqual({
        hosts: [
          { id: alpha, name: 'alpha' },
          { id: bravo, name: 'bravo' }
        ],
        groups: [
          { id: expect.any(Number), name: 'empty', hosts: [] },
          { id: web, name: 'web servers', hosts: [alpha, bravo] }
        ]
      })
    }
  })

  it('lists the hosts even when there is no group', async () => {
    expect((await groupList('')).json).toStrictEqual({
      hosts: [
        { id: alpha, name: 'alpha' },
        { id: bravo, name: 'bravo' }
      ],
      groups: []
    })
  })
})

describe('admin/groups/create and update', () => {
  it('creates a group and answers it', async () => {
    for (const [i, prefix] of PREFIXES.entries()) {
      const res = await admin.post(`${prefix}/admin/groups/create`, { name: `group ${i}` })
      expect(res.status).toBe(200)
      expect(res.json).toStrictEqual({ id: expect.any(Number), name: `group ${i}`, hosts: [], declared: [] })
    }
    expect(((await groupList()).json as { groups: unknown[] }).groups).toHaveLength(3)
  })

  it('answers 400 for a missing or empty name and 409 for a name in use', async () => {
    await createGroup('taken')
    expect(await admin.post('/api/2/admin/groups/create', {})).toMatchObject({
      status: 400,
      json: { error: "invalid argument 'name': is required" }
    })
    expect(await admin.post('/api/2/admin/groups/create', { name: '  ' })).toMatchObject({
      status: 400,
      json: { error: "invalid argument 'name': must not be empty" }
    })
    const conflict = await admin.post('/api/1/admin/groups/create', { name: 'taken' })
    expect(conflict.status).toBe(409)
    expect(conflict.json).toStrictEqual({ error: "a host group named 'taken' exists already" })
  })

  it("renames a group, keeping its members; 404 for an unknown id, 409 for another group's name", async () => {
    const id = await createGroup('old')
    await createGroup('other')
    await admin.post('/api/2/admin/groups/add', { id, hostid: alpha })
    expect(await admin.post('/api/2/admin/groups/update', { id, name: 'new' })).toMatchObject({
      status: 200,
      json: { id, name: 'new', hosts: [alpha] }
    })
    expect((await admin.post('/api/2/admin/groups/update', { id, name: 'new' })).status).toBe(200)
    expect(await admin.post('/api/2/admin/groups/update', { id, name: 'other' })).toMatchObject({ status: 409 })
    expect(await admin.post('/api/2/admin/groups/update', { id: 999, name: 'x' })).toMatchObject({
      status: 404,
      json: { error: 'no host group with id 999' }
    })
    expect(await admin.post('/api/2/admin/groups/update', { id })).toMatchObject({
      status: 400,
      json: { error: "invalid argument 'name': is required" }
    })
  })
})

describe('admin/groups/add and remove', () => {
  it('adds and removes repeated hostids; the membership is reported by list', async () => {
    const id = await createGroup('g')
    const generation = server.store.users.generation
    expect(await admin.post('/api/1/admin/groups/add', { id, hostid: [alpha, bravo, alpha] })).toMatchObject({
      status: 200,
      json: { id, name: 'g', hosts: [alpha, bravo] }
    })
    expect(server.store.users.generation).toBeGreaterThan(generation)
    expect((await admin.post('/admin/groups/add', { id, hostid: alpha })).json).toStrictEqual({
      id,
      name: 'g',
      hosts: [alpha, bravo],
      declared: []
    })
    expect((await admin.post('/api/2/admin/groups/remove', { id, hostid: [alpha] })).json).toStrictEqual({
      id,
      name: 'g',
      hosts: [bravo],
      declared: []
    })
    expect(((await groupList()).json as { groups: unknown[] }).groups).toStrictEqual([{ id, name: 'g', hosts: [bravo] }])
  })

  it('answers 404 for an unknown group or host and changes nothing', async () => {
    const id = await createGroup('g')
    for (const path of ['admin/groups/add', 'admin/groups/remove']) {
      expect(await admin.post(`/api/2/${path}`, { id: 999, hostid: alpha })).toMatchObject({
        status: 404,
        json: { error: 'no host group with id 999' }
      })
      expect(await admin.post(`/api/2/${path}`, { id, hostid: [alpha, 77] })).toMatchObject({
        status: 404,
        json: { error: 'no host with id 77' }
      })
      expect(await admin.post(`/api/2/${path}`, { id })).toMatchObject({
        status: 400,
        json: { error: "invalid argument 'hostid': is required" }
      })
      expect(await admin.post(`/api/2/${path}`, { id, hostid: 'x' })).toMatchObject({
        status: 400,
        json: { error: expect.stringContaining("'hostid'") }
      })
    }
    expect(((await groupList()).json as { groups: unknown[] }).groups).toStrictEqual([{ id, name: 'g', hosts: [] }])
  })

  it('drops a deleted host from its groups', async () => {
    const id = await createGroup('g')
    await admin.post('/api/2/admin/groups/add', { id, hostid: [alpha, bravo] })
    await admin.post('/api/2/admin/hosts/delete', { id: alpha })
    expect((await groupList()).json).toStrictEqual({ hosts: [{ id: bravo, name: 'bravo' }], groups: [{ id, name: 'g', hosts: [bravo] }] })
  })
})

describe('admin/groups/delete', () => {
  it('deletes a group, not its hosts; 404 for an unknown id', async () => {
    const id = await createGroup('g')
    await admin.post('/api/2/admin/groups/add', { id, hostid: alpha })
    expect(await admin.post('/api/2/admin/groups/delete', { id })).toMatchObject({ status: 200, json: {} })
    expect((await groupList()).json).toStrictEqual({
      hosts: [
        { id: alpha, name: 'alpha' },
        { id: bravo, name: 'bravo' }
      ],
      groups: []
    })
    expect(await admin.post('/api/1/admin/groups/delete', { id })).toMatchObject({
      status: 404,
      json: { error: `no host group with id ${id}` }
    })
  })

  it('a role row that named only the deleted group goes with it instead of widening to every host', async () => {
    const id = await createGroup('g')
    const db = server.store.sql.plain
    db.prepare("INSERT INTO role (id, name, admin, active) VALUES (10, 'viewers', 0, 1)").run()
    db.prepare('INSERT INTO role_row (id, role_id, permission, position) VALUES (10, 10, 2, 0), (11, 10, 2, 1)').run()
    db.prepare('INSERT INTO role_row_group VALUES (10, ?), (11, ?)').run(id, id)
    db.prepare('INSERT INTO role_row_host VALUES (11, ?)').run(alpha)
    const generation = server.store.users.generation

    await admin.post('/api/2/admin/groups/delete', { id })
    expect(db.prepare('SELECT id FROM role_row WHERE role_id = 10').all()).toEqual([{ id: 11 }])
    expect(server.store.users.generation).toBeGreaterThan(generation)
  })
})

describe('admin/groups access rules', () => {
  const mutations = ['create', 'update', 'delete', 'add', 'remove'].map((m) => `admin/groups/${m}`)

  it('answers 405 with Allow to GET on a mutation, under every prefix', async () => {
    for (const prefix of PREFIXES) {
      for (const path of mutations) {
        const res = await admin.get(`${prefix}/${path}`, { id: 1, name: 'x' })
        expect(res.status, path).toBe(405)
        expect(res.headers.allow).toBe('POST')
      }
    }
    expect(((await groupList()).json as { groups: unknown[] }).groups).toEqual([])
  })

  it('refuses every endpoint to a user who is not an administrator', async () => {
    const id = await createGroup('g')
    addUser(server.store, { uname: 'viewer', password: 'viewerpw', roleIds: [3] })
    const viewer = await loginAs(server.baseUrl, 'viewer', 'viewerpw')
    for (const prefix of PREFIXES) {
      expect((await viewer.get(`${prefix}/admin/groups/list`)).status).toBe(403)
      for (const path of mutations) {
        expect((await viewer.post(`${prefix}/${path}`, { id, name: 'x', hostid: alpha })).status, path).toBe(403)
      }
    }
    expect(((await groupList()).json as { groups: unknown[] }).groups).toStrictEqual([{ id, name: 'g', hosts: [] }])
  })

  it('with CSRF protection on, a mutation needs the token; without protection none is needed', async () => {
    const guarded = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
    expect(await guarded.post('/api/2/admin/groups/create', { name: 'g' })).toMatchObject({
      status: 403,
      json: { error: 'Invalid CSRF token' }
    })
    const token = await guarded.csrfToken()
    expect((await guarded.post('/api/2/admin/groups/create', { name: 'g' }, { CSRFToken: token })).status).toBe(200)
    expect((await guarded.get('/api/2/admin/groups/list')).status).toBe(200)
    expect((await admin.post('/api/2/admin/groups/create', { name: 'h' })).status).toBe(200)
  })
})

describe('host groups their agents declare (Monit 5.34+ set mmonit … with hostgroups)', () => {
  const CHARLIE = 'c0000000000000000000000000000003'
  /** Fixture 14 (Oslo, "Databases & <backups>") as agent CHARLIE's next message, declaring `names` when given. */
  let sent = 0
  async function declare(names?: string[]): Promise<number> {
    sent++
    const xml = asAgent(fixture('14-status-hostgroups'), CHARLIE, 'charlie').toString()
    await server.collect(shiftTime(names ? withHostGroups(xml, names) : xml, sent * 5))
    return hostOfAgent(server.store, CHARLIE)!.id
  }
  const groupsOf = async () => ((await groupList()).json as { groups: { id: number; name: string; hosts: number[] }[] }).groups

  it('are created with the host in them; list keeps its exact shape and admin/groups/declared marks them', async () => {
    const oslo = await createGroup('Oslo')
    await admin.post('/api/2/admin/groups/add', { id: oslo, hostid: alpha })
    const charlie = await declare()
    const groups = await groupsOf()
    expect(groups).toStrictEqual([
      { id: expect.any(Number), name: 'Databases & <backups>', hosts: [charlie] },
      { id: oslo, name: 'Oslo', hosts: [alpha, charlie] }
    ])
    for (const prefix of PREFIXES) {
      expect((await admin.get(`${prefix}/admin/groups/declared`)).json).toStrictEqual({
        groups: [
          { id: groups[0].id, hosts: [charlie] },
          { id: oslo, hosts: [charlie] }
        ].sort((a, b) => a.id - b.id)
      })
    }
    expect((await admin.post('/api/2/admin/groups/add', { id: oslo, hostid: bravo })).json).toStrictEqual({
      id: oslo,
      name: 'Oslo',
      hosts: [alpha, bravo, charlie],
      declared: [charlie]
    })
  })

  it('refuses 409 to remove a member its agent declares, and changes nothing', async () => {
    const charlie = await declare()
    const oslo = server.store.groups.idOfName('Oslo')!
    await admin.post('/api/2/admin/groups/add', { id: oslo, hostid: alpha })
    expect(await admin.post('/api/2/admin/groups/remove', { id: oslo, hostid: [alpha, charlie] })).toMatchObject({
      status: 409,
      json: {
        error: `host ${charlie} is in 'Oslo' because the agent declares it (set mmonit … with hostgroups): remove the group from the agent's control file`
      }
    })
    expect((await groupsOf()).find((g) => g.id === oslo)!.hosts).toEqual([alpha, charlie])
  })

  it("keep a membership an administrator assigned after the agent stops declaring the group; drop the agent's own", async () => {
    const charlie = await declare()
    const oslo = server.store.groups.idOfName('Oslo')!
    await admin.post('/api/2/admin/groups/add', { id: oslo, hostid: charlie })
    await declare([])
    expect(await groupsOf()).toStrictEqual([
      { id: expect.any(Number), name: 'Databases & <backups>', hosts: [] },
      { id: oslo, name: 'Oslo', hosts: [charlie] }
    ])
    expect((await admin.get('/api/2/admin/groups/declared')).json).toStrictEqual({ groups: [] })
  })

  it("grant a role's permissions on the group at once: a user of Oslo sees the host its agent put there", async () => {
    const oslo = await createGroup('Oslo')
    addUserWith(server.store, 'oslo-viewer', Permission.View, { groups: [oslo] })
    const viewer = await loginAs(server.baseUrl, 'oslo-viewer', 'oslo-viewer-secret')
    const hostsSeen = async () =>
      ((await viewer.get('/api/2/status/hosts/list')).json as { records: { id: number }[] }).records.map((h) => h.id)
    expect(await hostsSeen()).toEqual([])
    const charlie = await declare()
    expect(await hostsSeen()).toEqual([charlie])
    await declare(['Bergen'])
    expect(await hostsSeen()).toEqual([])
  })

  it(`a hostile agent declaring 10,000 groups in each message creates ${MAX_HOST_GROUPS}, said once in the log`, async () => {
    const names = Array.from({ length: 10_000 }, (_, i) => `hostile ${i}`)
    await declare(names)
    await declare(names)
    expect(await groupsOf()).toHaveLength(MAX_HOST_GROUPS)
    const said = [...captured.out(), ...captured.err()].filter((line) => line.includes('declares more host groups than are kept'))
    expect(said).toHaveLength(1)
    expect(said[0]).toContain(`${10_000 - MAX_HOST_GROUPS} past the ${MAX_HOST_GROUPS} a message may declare`)
  })

  it('are for administrators only', async () => {
    addUser(server.store, { uname: 'viewer', password: 'viewerpw', roleIds: [3] })
    const viewer = await loginAs(server.baseUrl, 'viewer', 'viewerpw')
    expect((await viewer.get('/api/2/admin/groups/declared')).status).toBe(403)
  })
})
