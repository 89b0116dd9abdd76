// admin/alerts/mutes/* over real HTTP, with hosts and services created by real collector posts. Times
// derive from the clock now.
import { describe, expect, it } from 'vitest'
import type { AlertMuteRecord } from '../../src/shared/api/alerts'
import { loginAs, type ApiClient, type Params } from '../support/api-client'
import type { TestServer } from '../support/in-process-server'
import { serverForEachTest } from '../support/server-per-test'
import { addUser } from '../support/users'

let server: TestServer
let admin: ApiClient
let alpha: number
let bravo: number

serverForEachTest(async (started) => {
  ;({ server, admin } = started)
  alpha = await server.addHost('a0000000000000000000000000000001', 'alpha')
  bravo = await server.addHost('b0000000000000000000000000000002', 'bravo')
})

/** A service of the host as status/hosts/get answers it. */
async function serviceOf(hostId: number, index = 0): Promise<{ id: number; name: string; nameid: number }> {
  const res = await admin.get('/api/2/status/hosts/get', { id: hostId })
  return (res.json as { records: { host: { services: { id: number; name: string; nameid: number }[] } } }).records.host.services[index]
}
const now = () => Math.floor(Date.now() / 1000)
async function create(args: Params): Promise<number> {
  const res = await admin.post('/api/2/admin/alerts/mutes/create', args)
  expect(res.status, res.text).toBe(200)
  return (res.json as { id: number }).id
}
const list = async (args: Params = {}) =>
  ((await admin.get('/api/2/admin/alerts/mutes/list', args)).json as { records: AlertMuteRecord[] }).records

describe('admin/alerts/mutes create and list', () => {
  it('mutes a whole host, by the caller, with a reason', async () => {
    const until = now() + 3600
    const id = await create({ hostid: alpha, until, reason: ' kernel upgrade ' })
    const expected: AlertMuteRecord = {
      id,
      hostid: alpha,
      hostname: 'alpha',
      serviceid: null,
      service: null,
      until,
      active: true,
      reason: 'kernel upgrade',
      createdby: 'admin',
      createdat: expect.any(Number)
    }
    for (const prefix of ['', '/api/1', '/api/2']) {
      expect((await admin.get(`${prefix}/admin/alerts/mutes/list`)).json).toStrictEqual({ records: [expected] })
    }
    expect(server.store.sql.plain.prepare('SELECT service_name_id, created_by FROM alert_mute WHERE id = ?').get(id)).toEqual({
      service_name_id: null,
      created_by: 'admin'
    })
  })

  it('mutes one service given by its status id, stored by its service name', async () => {
    const service = await serviceOf(bravo, 1)
    const until = now() + 600
    const id = await create({ hostid: bravo, serviceid: service.id, until })
    expect(await list()).toStrictEqual([
      {
        id,
        hostid: bravo,
        hostname: 'bravo',
        serviceid: service.id,
        service: service.name,
        until,
        active: true,
        reason: '',
        createdby: 'admin',
        createdat: expect.any(Number)
      }
    ])
    expect(server.store.sql.plain.prepare('SELECT service_name_id FROM alert_mute WHERE id = ?').get(id)).toEqual({
      service_name_id: service.nameid
    })
  })

  it('lists active mutes soonest ending first; ended ones only with ended=true', async () => {
    const later = await create({ hostid: alpha, until: now() + 7200 })
    const sooner = await create({ hostid: bravo, until: now() + 60 })
    server.store.sql.plain
      .prepare("INSERT INTO alert_mute (id, host_id, until, reason, created_by, created_at) VALUES (90, ?, ?, 'done', 'admin', ?)")
      .run(alpha, now() - 60, now() - 3600)
    expect((await list()).map((m) => m.id)).toEqual([sooner, later])
    const all = await list({ ended: 'true' })
    expect(all.map((m) => [m.id, m.active])).toEqual([
      [90, false],
      [sooner, true],
      [later, true]
    ])
    expect((await list({ ended: 'false' })).map((m) => m.id)).toEqual([sooner, later])
  })

  it('answers 400 for a time not in the future or a bad argument, 404 for an unknown host or service', async () => {
    const bad = async (args: Params, status: number, error: string) => {
      const res = await admin.post('/api/2/admin/alerts/mutes/create', args)
      expect(res.status, JSON.stringify(args)).toBe(status)
      expect((res.json as { error: string }).error).toBe(error)
    }
    const until = now() + 600
    await bad({ hostid: alpha, until: now() - 1 }, 400, "invalid argument 'until': must be in the future")
    await bad({ hostid: alpha }, 400, "invalid argument 'until': is required")
    await bad({ hostid: alpha, until: 'tomorrow' }, 400, "invalid argument 'until': expected a unix time")
    await bad({ until }, 400, "invalid argument 'hostid': is required")
    await bad({ hostid: 999, until }, 404, 'no host with id 999')
    const alphaService = await serviceOf(alpha)
    await bad({ hostid: bravo, serviceid: alphaService.id, until }, 404, `no service with id ${alphaService.id} on host ${bravo}`)
    await bad({ hostid: alpha, serviceid: 99999, until }, 404, `no service with id 99999 on host ${alpha}`)
    expect(await list({ ended: 'true' })).toEqual([])
  })
})

describe('admin/alerts/mutes/end', () => {
  it('ends a mute now and keeps it as ended; 409 the second time, 404 for none', async () => {
    const id = await create({ hostid: alpha, until: now() + 600, reason: 'kernel upgrade' })
    const kept = await create({ hostid: bravo, until: now() + 600 })
    expect(await admin.post('/api/2/admin/alerts/mutes/end', { id })).toMatchObject({ status: 200, json: {} })
    expect((await list()).map((m) => m.id)).toEqual([kept])
    const ended = (await list({ ended: 'true' })).find((m) => m.id === id)
    expect(ended).toMatchObject({ active: false, reason: 'kernel upgrade' })
    expect(ended!.until).toBeLessThanOrEqual(now())
    expect(await admin.post('/api/2/admin/alerts/mutes/end', { id })).toMatchObject({
      status: 409,
      json: { error: `alert mute ${id} has already ended` }
    })
    expect(await admin.post('/api/2/admin/alerts/mutes/end', { id: 999 })).toMatchObject({
      status: 404,
      json: { error: 'no alert mute with id 999' }
    })
  })
})

describe('admin/alerts/mutes/delete', () => {
  it('ends a mute early; 404 the second time', async () => {
    const id = await create({ hostid: alpha, until: now() + 600 })
    const kept = await create({ hostid: bravo, until: now() + 600 })
    expect(await admin.post('/api/2/admin/alerts/mutes/delete', { id })).toMatchObject({ status: 200, json: {} })
    expect(await admin.post('/api/2/admin/alerts/mutes/delete', { id })).toMatchObject({
      status: 404,
      json: { error: `no alert mute with id ${id}` }
    })
    expect((await list({ ended: 'true' })).map((m) => m.id)).toEqual([kept])
  })

  it('a deleted host takes its mutes with it', async () => {
    await create({ hostid: alpha, until: now() + 600 })
    await admin.post('/api/2/admin/hosts/delete', { id: alpha })
    expect(await list({ ended: 'true' })).toEqual([])
  })
})

describe('admin/alerts/mutes access rules', () => {
  it('refuses every endpoint to a user who is not an administrator', async () => {
    const id = await create({ hostid: alpha, until: now() + 600 })
    addUser(server.store, { uname: 'viewer', password: 'viewerpw', roleIds: [3] })
    const viewer = await loginAs(server.baseUrl, 'viewer', 'viewerpw')
    expect((await viewer.get('/api/2/admin/alerts/mutes/list')).status).toBe(403)
    expect((await viewer.post('/api/2/admin/alerts/mutes/create', { hostid: bravo, until: now() + 600 })).status).toBe(403)
    expect((await viewer.post('/api/2/admin/alerts/mutes/delete', { id })).status).toBe(403)
    expect((await list()).map((m) => m.id)).toEqual([id])
  })

  it('with CSRF protection on, create and delete need the token; created_by is that user', async () => {
    addUser(server.store, { uname: 'ops', password: 'opspassword', roleIds: [1] })
    const guarded = await loginAs(server.baseUrl, 'ops', 'opspassword', { csrf: 'on' })
    const args = { hostid: alpha, until: now() + 600 }
    expect(await guarded.post('/api/2/admin/alerts/mutes/create', args)).toMatchObject({
      status: 403,
      json: { error: 'Invalid CSRF token' }
    })
    expect(await guarded.post('/api/2/admin/alerts/mutes/delete', { id: 1 })).toMatchObject({
      status: 403,
      json: { error: 'Invalid CSRF token' }
    })
    const token = await guarded.csrfToken()
    expect((await guarded.post('/api/2/admin/alerts/mutes/create', args, { CSRFToken: token })).status).toBe(200)
    expect((await list())[0].createdby).toBe('ops')
  })
})
