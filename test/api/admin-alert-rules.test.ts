// admin/alerts/rules/* over real HTTP, with hosts created by real collector posts and channels and
// groups created through the API.
import { describe, expect, it } from 'vitest'
import type { AlertRuleRecord, AlertRuleScope } from '../../src/shared/api/alerts'
import { asAgent, fixture } from '../support/fixtures'
import { loginAs, type ApiClient, type Params } from '../support/api-client'
import type { TestServer } from '../support/in-process-server'
import { serverForEachTest } from '../support/server-per-test'
import { addUser } from '../support/users'

let server: TestServer
let admin: ApiClient
let alpha: number
let bravo: number
let channel: number
let group: number

serverForEachTest(async (started) => {
  ;({ server, admin } = started)
  alpha = await server.addHost('a0000000000000000000000000000001', 'alpha')
  bravo = await server.addHost('b0000000000000000000000000000002', 'bravo')
  channel = await idOf(admin.post('/api/2/admin/alerts/channels/create', { type: 'desktop', name: 'desk' }))
  group = await idOf(admin.post('/api/2/admin/groups/create', { name: 'web' }))
})

async function idOf(request: Promise<{ status: number; text: string; json: unknown }>): Promise<number> {
  const res = await request
  expect(res.status, res.text).toBe(200)
  return (res.json as { id: number }).id
}
const create = (args: Params) => idOf(admin.post('/api/2/admin/alerts/rules/create', args))
const get = async (id: number) => (await admin.get('/api/2/admin/alerts/rules/get', { id })).json as AlertRuleRecord
const storedRule = (id: number) =>
  server.store.sql.plain.prepare('SELECT * FROM alert_rule WHERE id = ?').get(id) as Record<string, unknown>

describe('admin/alerts/rules create, get and list', () => {
  it('creates a rule with the defaults: every host, service, type and state, heartbeat, 30 s, no reminder, recovery', async () => {
    const id = await create({ name: 'all', channelid: channel })
    const expected: AlertRuleRecord = {
      id,
      name: 'all',
      enabled: true,
      channelid: [channel],
      hostid: [],
      hostgroupid: [],
      servicepattern: '',
      servicetype: [],
      state: [0, 1, 2],
      eventtype: 0,
      heartbeat: true,
      groupwait: 30,
      reminder: 0,
      recovery: true,
      createdat: expect.any(Number)
    }
    expect(await get(id)).toStrictEqual(expected)
    for (const prefix of ['', '/api/1', '/api/2']) {
      expect((await admin.get(`${prefix}/admin/alerts/rules/list`)).json).toStrictEqual({ records: [expected] })
    }
    expect(storedRule(id)).toMatchObject({ states: 7, event_types: 0, group_wait_sec: 30, reminder_min: 0, recovery: 1, heartbeat: 1 })
  })

  it('takes every argument, repeatable ones repeated, and stores the states as bits', async () => {
    const id = await create({
      name: 'db',
      enabled: 'false',
      channelid: [channel],
      hostid: [bravo, alpha, alpha],
      hostgroupid: group,
      servicepattern: 'postgres*',
      servicetype: [3, 0],
      state: [1, 2],
      eventtype: 512 + 32,
      heartbeat: 'false',
      groupwait: 0,
      reminder: 60,
      recovery: 'false'
    })
    expect(await get(id)).toMatchObject({
      enabled: false,
      channelid: [channel],
      hostid: [alpha, bravo],
      hostgroupid: [group],
      servicepattern: 'postgres*',
      servicetype: [0, 3],
      state: [1, 2],
      eventtype: 544,
      heartbeat: false,
      groupwait: 0,
      reminder: 60,
      recovery: false
    })
    expect(storedRule(id)).toMatchObject({ states: 1 | 2, service_pattern: 'postgres*', event_types: 544 })
    const succeeded = await create({ name: 'recoveries', channelid: channel, state: 0 })
    expect(storedRule(succeeded).states).toBe(4)
    expect((await get(succeeded)).state).toEqual([0])
  })

  it('answers 400 naming the bad argument', async () => {
    const bad = async (args: Params, error: string) => {
      const res = await admin.post('/api/2/admin/alerts/rules/create', args)
      expect(res.status, JSON.stringify(args)).toBe(400)
      expect((res.json as { error: string }).error).toBe(error)
    }
    const ok = { name: 'r', channelid: channel }
    await bad({ channelid: channel }, "invalid argument 'name': is required")
    await bad({ name: 'r' }, "invalid argument 'channelid': at least one channel is required")
    await bad({ ...ok, channelid: 'x' }, "invalid argument 'channelid': expected a whole number")
    await bad({ ...ok, state: 3 }, "invalid argument 'state': expected 0 (succeeded), 1 (failed) or 2 (changed)")
    await bad({ ...ok, servicetype: 9 }, "invalid argument 'servicetype': expected a service type code from 0 to 8")
    await bad({ ...ok, eventtype: -1 }, "invalid argument 'eventtype': expected an event type bitmap (0: every type)")
    await bad({ ...ok, groupwait: -1 }, "invalid argument 'groupwait': expected a number of seconds from 0 to 86400")
    await bad({ ...ok, reminder: 'soon' }, "invalid argument 'reminder': expected a whole number")
    await bad({ ...ok, heartbeat: 'perhaps' }, "invalid argument 'heartbeat': expected true or false")
    expect((await admin.get('/api/2/admin/alerts/rules/list')).json).toStrictEqual({ records: [] })
  })

  it('answers 404 naming an unknown channel, host or group, and 409 for a name in use', async () => {
    const ok = { name: 'r', channelid: channel }
    expect(await admin.post('/api/2/admin/alerts/rules/create', { ...ok, channelid: [channel, 77] })).toMatchObject({
      status: 404,
      json: { error: 'no alert channel with id 77' }
    })
    expect(await admin.post('/api/2/admin/alerts/rules/create', { ...ok, hostid: [alpha, 88, 89] })).toMatchObject({
      status: 404,
      json: { error: 'no host with id 88, 89' }
    })
    expect(await admin.post('/api/2/admin/alerts/rules/create', { ...ok, hostgroupid: 99 })).toMatchObject({
      status: 404,
      json: { error: 'no host group with id 99' }
    })
    await create(ok)
    expect(await admin.post('/api/2/admin/alerts/rules/create', ok)).toMatchObject({
      status: 409,
      json: { error: "an alert rule named 'r' exists already" }
    })
    expect(await admin.get('/api/2/admin/alerts/rules/get', { id: 999 })).toMatchObject({
      status: 404,
      json: { error: 'no alert rule with id 999' }
    })
  })
})

describe('admin/alerts/rules/update', () => {
  it('changes only what it is given; one empty value clears a list', async () => {
    const other = await idOf(admin.post('/api/2/admin/alerts/channels/create', { type: 'desktop', name: 'desk 2' }))
    const id = await create({ name: 'r', channelid: channel, hostid: alpha, hostgroupid: group, servicetype: 3, state: 1, reminder: 5 })
    const updated = await admin.post('/api/2/admin/alerts/rules/update', {
      id,
      enabled: 'false',
      channelid: [other, channel],
      groupwait: 120
    })
    expect(updated).toMatchObject({
      status: 200,
      json: {
        id,
        name: 'r',
        enabled: false,
        channelid: [channel, other],
        hostid: [alpha],
        hostgroupid: [group],
        servicetype: [3],
        state: [1],
        groupwait: 120,
        reminder: 5
      }
    })
    await admin.post('/api/2/admin/alerts/rules/update', { id, hostid: '', hostgroupid: '', servicetype: '', state: '' })
    expect(await get(id)).toMatchObject({ hostid: [], hostgroupid: [], servicetype: [], state: [0, 1, 2], channelid: [channel, other] })
    expect(await admin.post('/api/2/admin/alerts/rules/update', { id, channelid: '' })).toMatchObject({
      status: 400,
      json: { error: "invalid argument 'channelid': at least one channel is required" }
    })
  })

  it("answers 404 for an unknown rule or reference, 409 for another rule's name; the rule stays as it was", async () => {
    const id = await create({ name: 'r', channelid: channel })
    await create({ name: 'other', channelid: channel })
    expect(await admin.post('/api/2/admin/alerts/rules/update', { id: 999, name: 'x' })).toMatchObject({
      status: 404,
      json: { error: 'no alert rule with id 999' }
    })
    expect(await admin.post('/api/2/admin/alerts/rules/update', { id, hostid: 77 })).toMatchObject({
      status: 404,
      json: { error: 'no host with id 77' }
    })
    expect(await admin.post('/api/2/admin/alerts/rules/update', { id, name: 'other' })).toMatchObject({ status: 409 })
    expect((await admin.post('/api/2/admin/alerts/rules/update', { id, name: 'r' })).status).toBe(200)
    expect(await get(id)).toMatchObject({ name: 'r', hostid: [] })
  })
})

describe('admin/alerts/rules/delete and references', () => {
  it('deletes a rule with its lists; 404 the second time', async () => {
    const id = await create({ name: 'r', channelid: channel, hostid: alpha, servicetype: 3 })
    expect(await admin.post('/api/2/admin/alerts/rules/delete', { id })).toMatchObject({ status: 200, json: {} })
    expect(await admin.post('/api/2/admin/alerts/rules/delete', { id })).toMatchObject({
      status: 404,
      json: { error: `no alert rule with id ${id}` }
    })
    const db = server.store.sql.plain
    for (const table of ['alert_rule_channel', 'alert_rule_host', 'alert_rule_service_type']) {
      expect(db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get(), table).toEqual({ n: 0 })
    }
  })

  it('a deleted host, group or channel leaves the rules that named it', async () => {
    const id = await create({ name: 'r', channelid: channel, hostid: [alpha, bravo], hostgroupid: group })
    await admin.post('/api/2/admin/hosts/delete', { id: alpha })
    await admin.post('/api/2/admin/groups/delete', { id: group })
    expect(await get(id)).toMatchObject({ hostid: [bravo], hostgroupid: [], channelid: [channel] })
    await admin.post('/api/2/admin/alerts/channels/delete', { id: channel })
    expect(await get(id)).toMatchObject({ channelid: [] })
  })
})

describe('failures already active (issue 28)', () => {
  const inScope = async (args: Params) => (await admin.get('/api/2/admin/alerts/rules/inscope', args)).json as AlertRuleScope
  const outbox = () =>
    server.store.sql.plain.prepare('SELECT event_id, rule_id, kind FROM alert_outbox ORDER BY id').all() as {
      event_id: number
      rule_id: number
      kind: string
    }[]
  /** alpha's sleeper does not exist, bravo's labprog fails: real agents' events, as posted. */
  const failing = async () => {
    await server.collect(asAgent(fixture('03-event-process-not-running'), 'a0000000000000000000000000000001', 'alpha'))
    await server.collect(asAgent(fixture('12-event-program-status-failed'), 'b0000000000000000000000000000002', 'bravo'))
  }

  it('inscope counts, before saving, the failures active now that a rule would page about, in words', async () => {
    await failing()
    const all = await inScope({ name: 'all', channelid: channel })
    expect(all.failures).toBe(2)
    expect(all.first.map(({ host, service, what }) => ({ host, service, what }))).toEqual([
      { host: 'alpha', service: 'sleeper', what: 'process sleeper does not exist on alpha' },
      { host: 'bravo', service: 'labprog', what: 'program labprog status failed on bravo' }
    ])
    expect((await inScope({ channelid: channel, servicepattern: 'sleep*' })).failures).toBe(1)
    expect((await inScope({ channelid: channel, hostid: bravo })).failures).toBe(1)
    expect((await inScope({ channelid: channel, state: 0 })).failures).toBe(0)
    // An existing rule's scope with the arguments changed, as its editor shows it.
    const id = await create({ name: 'bravo only', channelid: channel, hostid: bravo })
    expect((await inScope({ id })).failures).toBe(1)
    expect((await inScope({ id, hostid: '' })).failures).toBe(2)
    // A host muted now is left out.
    await admin.post('/api/2/admin/alerts/mutes/create', { hostid: alpha, until: Math.floor(Date.now() / 1000) + 3600, reason: 'work' })
    expect((await inScope({ channelid: channel })).failures).toBe(1)
    // Bad arguments as create's; an unknown rule 404.
    expect((await admin.get('/api/2/admin/alerts/rules/inscope', { channelid: channel, state: 7 })).status).toBe(400)
    expect((await admin.get('/api/2/admin/alerts/rules/inscope', { id: 999 })).status).toBe(404)
  })

  it('create and update with notifyactive queue them as alerts of the rule, once; without it nothing is queued', async () => {
    await failing()
    const quiet = await idOf(admin.post('/api/2/admin/alerts/rules/create', { name: 'quiet', channelid: channel }))
    expect(outbox()).toEqual([])
    const created = await admin.post('/api/2/admin/alerts/rules/create', { name: 'told', channelid: channel, notifyactive: true })
    const told = (created.json as { id: number; notified: number }).id
    expect(created.json).toMatchObject({ notified: 2 })
    expect(outbox().map((r) => [r.rule_id, r.kind])).toEqual([
      [told, 'alert'],
      [told, 'alert']
    ])
    // Told already by this rule: not again. The other rule tells them now.
    expect((await inScope({ id: told })).failures).toBe(0)
    expect((await admin.post('/api/2/admin/alerts/rules/update', { id: told, notifyactive: true })).json).toMatchObject({ notified: 0 })
    expect((await admin.post('/api/2/admin/alerts/rules/update', { id: quiet, notifyactive: true })).json).toMatchObject({ notified: 2 })
    expect(outbox()).toHaveLength(4)
    // A disabled rule queues nothing.
    const off = await admin.post('/api/2/admin/alerts/rules/create', {
      name: 'off',
      channelid: channel,
      enabled: false,
      notifyactive: true
    })
    expect(off.json).toMatchObject({ notified: 0 })
  })
})

describe('admin/alerts/rules access rules', () => {
  const mutations = ['create', 'update', 'delete'].map((m) => `/api/2/admin/alerts/rules/${m}`)

  it('refuses every endpoint to a user who is not an administrator', async () => {
    const id = await create({ name: 'r', channelid: channel })
    addUser(server.store, { uname: 'viewer', password: 'viewerpw', roleIds: [3] })
    const viewer = await loginAs(server.baseUrl, 'viewer', 'viewerpw')
    expect((await viewer.get('/api/2/admin/alerts/rules/list')).status).toBe(403)
    expect((await viewer.get('/api/2/admin/alerts/rules/get', { id })).status).toBe(403)
    expect((await viewer.get('/api/2/admin/alerts/rules/inscope', { id })).status).toBe(403)
    for (const path of mutations) expect((await viewer.post(path, { id, name: 'x', channelid: channel })).status, path).toBe(403)
    expect(await get(id)).toMatchObject({ name: 'r' })
  })

  it('with CSRF protection on, every mutation needs the token; GET is refused on mutations', async () => {
    const guarded = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
    for (const path of mutations) {
      expect(await guarded.post(path, { id: 1, name: 'r', channelid: channel }), path).toMatchObject({
        status: 403,
        json: { error: 'Invalid CSRF token' }
      })
      expect((await admin.get(path, { id: 1, name: 'r', channelid: channel })).status, path).toBe(405)
    }
    const token = await guarded.csrfToken()
    expect((await guarded.post(mutations[0], { name: 'r', channelid: channel }, { CSRFToken: token })).status).toBe(200)
  })
})
