// reports/events/{list,get,summary,dismiss,note} over real HTTP (spec: Event reports; compat 6.4,
// PAGE-1..4). Hosts come from the real collector; a few thousand events are generated deterministically
// in the store, and every answer is checked against a model computed from the stored rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loginAs, PREFIXES, type ApiClient, type ApiResponse, type Params } from '../support/api-client'
import { asAgent, fixture } from '../support/fixtures'
import { withPoll } from '../support/payloads'
import { viewerOf } from '../support/viewers'
import { startTestServer, type TestServer } from '../support/in-process-server'
import type { EventDetail, EventListEntry } from '../../src/shared/api/events'

interface EventList {
  records: EventListEntry[]
  recordsReturned: number
  pageSize: number
  totalRecords: number
  startIndex: number
  sort: string
  dir: string
}
interface Summary {
  datefrom: number
  dateto: number
  events: { label: string; data: [number, number][] }[]
}

/** A stored event as the model sees it. */
interface Model {
  id: number
  date: number
  hostid: number
  hostname: string
  servicename: string
  servicenameid: number
  servicetype: number
  cls: number
  state: number
  action: number
  message: string
  active: number
  dismissed: number
  has_note: number
}

const SERVICES = ['nginx', 'mysql', 'rootfs', 'cron', 'sshd']
const CLASSES = [1, 2, 512, 32, 4096, 2097152, 1048576]
const STATES = [0, 1, 2, 4]
const COUNT = 3000
const NOW = Math.floor(Date.now() / 1000)

let server: TestServer
let admin: ApiClient
let viewer: ApiClient
const host: Record<string, number> = {}
let hostGroupId: number
let serviceGroupId: number

// A poll of an hour: however long the file takes on a busy machine, the watchdog adds no "no report"
// event to those the model knows.
const heartbeat = Buffer.from(withPoll(fixture('02-status-heartbeat'), 3600))
const collect = (agent: string, hostname: string) => server.collect(asAgent(heartbeat, agent.repeat(32), hostname))

/** Deterministic events: every filter value occurs, mixed with the others; 30 h of history up to now. */
function seedEvents(): void {
  const { sql, services } = server.store
  const hosts = [host.alpha, host.bravo, host.charlie]
  const nameIds = SERVICES.map((n) => services.nameId(n))
  const insert = sql.plain.prepare(`INSERT INTO event (host_id, service_name_id, service_name, service_type, class,
    state, action, message, collected_usec, date, active, dismissed, has_note) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,0)`)
  sql.transaction(() => {
    for (let i = 0; i < COUNT; i++) {
      const state = STATES[(i >> 1) % 4]
      const active = state === 1 && i % 5 !== 0 ? 1 : 0
      const date = NOW - 108_000 + i * 36
      insert.run(
        hosts[i % 3],
        nameIds[i % 5],
        SERVICES[i % 5],
        i % 9,
        CLASSES[i % 7],
        state,
        i % 8,
        `event ${String(i % 13).padStart(2, '0')} of ${SERVICES[i % 5]}`,
        date * 1e6 + i,
        date,
        active,
        active && i % 7 === 0 ? 1 : 0
      )
    }
  })
}

/** Every stored event, read straight from the store. */
function model(): Model[] {
  const { db, sql } = server.store
  return sql.all(
    db
      .selectFrom('event')
      .innerJoin('host', 'host.id', 'event.host_id')
      .select([
        'event.id',
        'event.date',
        'event.host_id as hostid',
        'host.hostname',
        'event.service_name as servicename',
        'event.service_name_id as servicenameid',
        'event.service_type as servicetype',
        'event.class as cls',
        'event.state',
        'event.action',
        'event.message',
        'event.active',
        'event.dismissed',
        'event.has_note'
      ])
  )
}

beforeAll(async () => {
  server = await startTestServer()
  await collect('a', 'alpha')
  await collect('b', 'bravo')
  await collect('c', 'charlie')
  const { db, sql, services } = server.store
  for (const h of sql.all(db.selectFrom('host').select(['id', 'hostname']))) host[h.hostname] = h.id
  seedEvents()
  const g = sql.first(db.insertInto('host_group').values({ name: 'bc' }).returning('id'))!
  hostGroupId = g.id
  sql.run(
    db.insertInto('host_group_member').values([
      { group_id: g.id, host_id: host.bravo },
      { group_id: g.id, host_id: host.charlie }
    ])
  )
  const sg = sql.first(db.insertInto('service_group').values({ host_id: host.alpha, name: 'web' }).returning('id'))!
  serviceGroupId = sg.id
  sql.run(
    db.insertInto('service_group_member').values(['nginx', 'mysql'].map((n) => ({ group_id: sg.id, service_name_id: services.nameId(n) })))
  )
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
  viewer = await viewerOf(server, 'viewer', { hosts: [host.alpha] })
})
afterAll(() => server.stopAndClean())

async function list(client: ApiClient, params: Params = {}, prefix = '/api/1'): Promise<EventList> {
  const res = await client.get(`${prefix}/reports/events/list`, params)
  expect(res.status, res.text).toBe(200)
  return res.json as EventList
}

/** Every page of a listing, 1000 at a time. */
async function listAll(client: ApiClient, params: Params = {}): Promise<EventListEntry[]> {
  const all: EventListEntry[] = []
  for (;;) {
    const page = await list(client, { ...params, results: 1000, startindex: all.length })
    all.push(...page.records)
    if (page.recordsReturned === 0 || all.length >= page.totalRecords) return all
  }
}

async function getEvent(client: ApiClient, id: number, prefix = '/api/1'): Promise<EventDetail> {
  const res = await client.get(`${prefix}/reports/events/get`, { id })
  expect(res.status, res.text).toBe(200)
  return (res.json as { records: { event: EventDetail } }).records.event
}

function expectError(res: ApiResponse, status: number, error: RegExp): void {
  expect(res.status).toBe(status)
  expect((res.json as { error: string }).error).toMatch(error)
}

const newestFirst = (a: Model, b: Model) => b.date - a.date || b.id - a.id
const ids = (rows: readonly { id: number }[]) => rows.map((r) => r.id)

describe('reports/events/list', () => {
  it('answers the full envelope, newest first, 100 by default, on every prefix', async () => {
    const all = model().sort(newestFirst)
    for (const prefix of PREFIXES) {
      const page = await list(admin, {}, prefix)
      expect({ ...page, records: undefined }).toEqual({
        records: undefined,
        recordsReturned: 100,
        pageSize: 100,
        totalRecords: all.length,
        startIndex: 0,
        sort: 'date',
        dir: 'desc'
      })
      expect(ids(page.records)).toEqual(ids(all.slice(0, 100)))
    }
  })

  it('answers the record fields, state 4 read as 0', async () => {
    const m = model().find((e) => e.state === 4)!
    const [r] = (await list(admin, { datefrom: m.date, dateto: m.date, hostid: m.hostid })).records
    expect(r).toEqual({
      id: m.id,
      date: m.date,
      hostname: m.hostname,
      hostid: m.hostid,
      servicename: m.servicename,
      servicenameid: m.servicenameid,
      event: m.message,
      eventtype: 0,
      note: 0,
      servicetype: m.servicetype,
      state: 0,
      action: m.action,
      message: m.message,
      active: m.active
    })
  })

  // Arguments are built when the test runs: host and group ids exist only after beforeAll.
  const nameId = (n: string) => server.store.services.nameId(n)
  const filters: [string, () => Params, (e: Model) => boolean][] = [
    ['active=0', () => ({ active: 0 }), () => true],
    ['active=1', () => ({ active: 1 }), (e) => e.active === 1],
    ['active=2', () => ({ active: 2 }), (e) => e.active === 1 && e.dismissed === 0],
    ['hostid', () => ({ hostid: host.bravo }), (e) => e.hostname === 'bravo'],
    ['hostid repeated', () => ({ hostid: [host.bravo, host.alpha] }), (e) => e.hostname === 'bravo' || e.hostname === 'alpha'],
    ['hostgroupid', () => ({ hostgroupid: hostGroupId }), (e) => e.hostname === 'bravo' || e.hostname === 'charlie'],
    ['servicenameid', () => ({ servicenameid: nameId('mysql') }), (e) => e.servicename === 'mysql'],
    [
      'servicegroupid',
      () => ({ servicegroupid: serviceGroupId }),
      (e) => e.hostname === 'alpha' && ['nginx', 'mysql'].includes(e.servicename)
    ],
    ['servicetype', () => ({ servicetype: 8 }), (e) => e.servicetype === 8],
    ['eventtype', () => ({ eventtype: 512 }), (e) => e.cls === 512],
    ['eventtype with several bits', () => ({ eventtype: 1 | 32 }), (e) => e.cls === 1 || e.cls === 32],
    ['state 0 matches 4', () => ({ state: 0 }), (e) => e.state === 0 || e.state === 4],
    ['state 1', () => ({ state: 1 }), (e) => e.state === 1],
    ['state 2', () => ({ state: 2 }), (e) => e.state === 2],
    ['datefrom', () => ({ datefrom: NOW - 3600 }), (e) => e.date >= NOW - 3600],
    ['dateto', () => ({ dateto: NOW - 100_000 }), (e) => e.date <= NOW - 100_000],
    [
      'combined',
      () => ({ hostid: host.alpha, servicetype: 3, state: 1, datefrom: NOW - 80_000, dateto: NOW - 10_000, active: 1 }),
      (e) =>
        e.hostname === 'alpha' && e.servicetype === 3 && e.state === 1 && e.active === 1 && e.date >= NOW - 80_000 && e.date <= NOW - 10_000
    ],
    [
      'combined groups',
      () => ({ hostgroupid: hostGroupId, servicenameid: nameId('cron'), eventtype: 2097152 }),
      (e) => ['bravo', 'charlie'].includes(e.hostname) && e.servicename === 'cron' && e.cls === 2097152
    ]
  ]

  it.each(filters)('filters by %s', async (_name, params, wanted) => {
    const expected = model().filter(wanted).sort(newestFirst)
    expect(expected.length).toBeGreaterThan(0)
    const got = await listAll(admin, params())
    expect(ids(got)).toEqual(ids(expected))
  })

  it('pages by offset, capped at 1000, with an empty page past the end', async () => {
    const all = model().sort(newestFirst)
    const total = all.length
    const page = await list(admin, { results: 7, startindex: 10 })
    expect(ids(page.records)).toEqual(ids(all.slice(10, 17)))
    expect(page).toMatchObject({ recordsReturned: 7, pageSize: 7, startIndex: 10, totalRecords: total })
    expect(await list(admin, { results: 5000 })).toMatchObject({ pageSize: 1000, recordsReturned: 1000 })
    expect(await list(admin, { startindex: total - 1 })).toMatchObject({ recordsReturned: 1, totalRecords: total })
    expect(await list(admin, { startindex: total })).toMatchObject({ records: [], recordsReturned: 0, totalRecords: total })
    expect(await list(admin, { startindex: total + 500 })).toMatchObject({ records: [], recordsReturned: 0, totalRecords: total })
  })

  const byKey: Record<string, (e: Model) => string | number> = {
    date: (e) => e.date,
    hostname: (e) => e.hostname,
    servicename: (e) => e.servicename,
    event: (e) => e.message,
    note: (e) => e.has_note
  }
  const cases = Object.keys(byKey).flatMap((sort) => (['asc', 'desc'] as const).map((dir) => [sort, dir] as const))

  it.each(cases)('sorts by %s %s', async (sort, dir) => {
    // One event with a note, so the note sort has something to move.
    const noted = model().sort(newestFirst)[1500]
    if (!noted.has_note) await admin.post('/api/1/reports/events/note', { id: noted.id, message: 'sort me' })
    const key = byKey[sort]
    const sign = dir === 'asc' ? 1 : -1
    const expected = model().sort((a, b) => {
      const x = key(a)
      const y = key(b)
      if (x !== y) return (x < y ? -1 : 1) * sign
      return sort === 'date' ? (a.id - b.id) * sign : newestFirst(a, b)
    })
    const got = await listAll(admin, { sort, dir })
    expect(ids(got)).toEqual(ids(expected))
    const first = await list(admin, { sort, dir, results: 1 })
    expect(first).toMatchObject({ sort, dir })
  })

  it('sorts by date descending for an unknown sort and ascending by name without dir', async () => {
    expect(await list(admin, { sort: 'bogus', dir: 'sideways', results: 1 })).toMatchObject({ sort: 'date', dir: 'desc' })
    expect(await list(admin, { sort: 'hostname', results: 1 })).toMatchObject({ sort: 'hostname', dir: 'asc' })
  })

  it('answers 400 naming the bad argument', async () => {
    const bad: [Params, string][] = [
      [{ active: 3 }, 'active'],
      [{ hostid: 'abc' }, 'hostid'],
      [{ hostgroupid: 'x' }, 'hostgroupid'],
      [{ servicenameid: '1.5' }, 'servicenameid'],
      [{ servicegroupid: '' }, 'servicegroupid'],
      [{ servicetype: 9 }, 'servicetype'],
      [{ eventtype: 0 }, 'eventtype'],
      [{ state: 3 }, 'state'],
      [{ datefrom: 'yesterday' }, 'datefrom'],
      [{ dateto: 'now' }, 'dateto'],
      [{ results: 0 }, 'results'],
      [{ startindex: -1 }, 'startindex']
    ]
    for (const [params, name] of bad) {
      expectError(await admin.get('/api/1/reports/events/list', params), 400, new RegExp(`'${name}'`))
    }
  })

  it('shows a viewer only the events of the hosts it may view, whatever it asks for', async () => {
    const expected = model()
      .filter((e) => e.hostid === host.alpha)
      .sort(newestFirst)
    expect(ids(await listAll(viewer))).toEqual(ids(expected))
    expect((await list(viewer, { hostid: host.bravo })).totalRecords).toBe(0)
    expect((await list(viewer, { hostgroupid: hostGroupId })).totalRecords).toBe(0)
  })
})

describe('reports/events/get', () => {
  it('answers the detail with labels on every prefix', async () => {
    const m = model().find((e) => e.cls === 512 && e.state === 1 && e.servicetype === 3)!
    for (const prefix of PREFIXES) {
      expect(await getEvent(admin, m.id, prefix)).toEqual({
        id: m.id,
        hostid: m.hostid,
        host: m.hostname,
        date: m.date,
        servicename: m.servicename,
        servicetype: 'Process',
        event: 'Does not exist',
        eventstate: 1,
        action: ['ignore', 'alert', 'restart', 'stop', 'exec', 'unmonitor', 'start', 'monitor'][m.action],
        message: m.message,
        note: [],
        servicenameid: m.servicenameid,
        active: m.active,
        dismissed: m.dismissed
      })
    }
    const changedNot = model().find((e) => e.cls === 1 && e.state === 4)!
    expect(await getEvent(admin, changedNot.id)).toMatchObject({ event: 'Checksum not changed', eventstate: 0 })
    const changed = model().find((e) => e.cls === 2097152 && e.state === 2)!
    expect(await getEvent(admin, changed.id)).toMatchObject({ event: 'Status changed', eventstate: 2 })
  })

  it('answers 404 for unknown events and for hosts the caller may not view, 400 without id', async () => {
    expectError(await admin.get('/api/1/reports/events/get', { id: 99_999_999 }), 404, /no event/)
    const other = model().find((e) => e.hostid === host.bravo)!
    expectError(await viewer.get('/api/1/reports/events/get', { id: other.id }), 404, /no event/)
    const own = model().find((e) => e.hostid === host.alpha)!
    expect((await getEvent(viewer, own.id)).host).toBe('alpha')
    expectError(await admin.get('/api/1/reports/events/get'), 400, /'id'/)
  })
})

describe('reports/events/summary', () => {
  function expectedSummary(s: Summary, events: readonly Model[]) {
    const kinds: Record<string, (state: number) => boolean> = {
      Failed: (st) => st === 1,
      Changed: (st) => st === 2,
      Succeeded: (st) => st === 0 || st === 4
    }
    return Object.entries(kinds).map(([label, kind]) => ({
      label,
      data: Array.from({ length: 144 }, (_, b) => {
        const from = s.datefrom + b * 600
        const n = events.filter((e) => kind(e.state) && e.date >= from && (b === 143 ? e.date <= s.dateto : e.date < from + 600)).length
        return [from, n]
      })
    }))
  }

  it('counts the last 24 hours in 144 samples of 10 minutes per state', async () => {
    for (const prefix of PREFIXES) {
      const asked = Math.floor(Date.now() / 1000)
      const res = await admin.get(`${prefix}/reports/events/summary`)
      const answered = Math.ceil(Date.now() / 1000)
      expect(res.status).toBe(200)
      const s = res.json as Summary
      expect(s.dateto - s.datefrom).toBe(86_400)
      expect(s.dateto).toBeGreaterThanOrEqual(asked)
      expect(s.dateto).toBeLessThanOrEqual(answered)
      expect(s.events.map((e) => e.label)).toEqual(['Failed', 'Changed', 'Succeeded'])
      expect(s.events).toEqual(expectedSummary(s, model()))
      expect(s.events.flatMap((e) => e.data).some(([, n]) => n > 0)).toBe(true)
    }
  })

  it('counts only the hosts a viewer may view', async () => {
    const s = (await viewer.get('/api/1/reports/events/summary')).json as Summary
    expect(s.events).toEqual(
      expectedSummary(
        s,
        model().filter((e) => e.hostid === host.alpha)
      )
    )
  })
})

describe('reports/events/dismiss', () => {
  it('dismisses an active error: active=2 leaves it out, active=1 keeps it', async () => {
    const target = model()
      .filter((e) => e.active === 1 && e.dismissed === 0)
      .sort(newestFirst)[0]
    const before2 = (await list(admin, { active: 2 })).totalRecords
    const before1 = (await list(admin, { active: 1 })).totalRecords
    const res = await admin.post('/api/1/reports/events/dismiss', { id: target.id })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({})
    const after2 = await list(admin, { active: 2, results: 1000 })
    expect(after2.totalRecords).toBe(before2 - 1)
    expect(ids(after2.records)).not.toContain(target.id)
    expect(ids((await list(admin, { active: 1, results: 1 })).records)).toEqual([target.id])
    expect((await list(admin, { active: 1 })).totalRecords).toBe(before1)
    expect(await getEvent(admin, target.id)).toMatchObject({ active: 1, dismissed: 1 })
  })

  it('accepts GET on every prefix (the spec lets each event report take GET or POST)', async () => {
    const targets = model()
      .filter((e) => e.active === 1 && e.dismissed === 0)
      .slice(0, 3)
    for (const [i, prefix] of PREFIXES.entries()) {
      expect((await admin.get(`${prefix}/reports/events/dismiss`, { id: targets[i].id })).status).toBe(200)
    }
    expect(
      model()
        .filter((e) => ids(targets).includes(e.id))
        .every((e) => e.dismissed === 1)
    ).toBe(true)
  })

  it('answers 404 for unknown or not viewable events, 403 without the CSRF token when protection is on', async () => {
    expectError(await admin.post('/api/1/reports/events/dismiss', { id: 99_999_999 }), 404, /no event/)
    const other = model().find((e) => e.hostid === host.bravo && e.active === 1 && e.dismissed === 0)!
    expectError(await viewer.post('/api/1/reports/events/dismiss', { id: other.id }), 404, /no event/)
    expect(model().find((e) => e.id === other.id)!.dismissed).toBe(0)
    const guarded = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
    expect((await guarded.post('/api/1/reports/events/dismiss', { id: other.id })).status).toBe(403)
    const ok = await guarded.post('/api/1/reports/events/dismiss', { id: other.id }, { CSRFToken: await guarded.csrfToken() })
    expect(ok.status).toBe(200)
  })

  it('lets a viewer dismiss the events of its hosts', async () => {
    const own = model().find((e) => e.hostid === host.alpha && e.active === 1 && e.dismissed === 0)!
    expect((await viewer.post('/api/1/reports/events/dismiss', { id: own.id })).status).toBe(200)
    expect(model().find((e) => e.id === own.id)!.dismissed).toBe(1)
  })
})

describe('reports/events/note', () => {
  it('adds notes authored by the caller and answers the detail', async () => {
    const own = model().filter((e) => e.hostid === host.alpha && e.has_note === 0)[3]
    const asked = Date.now() / 1000
    const first = await admin.post('/api/2/reports/events/note', { id: own.id, message: 'looking into it' })
    const answered = Date.now() / 1000
    expect(first.status, first.text).toBe(200)
    const detail = (first.json as { records: { event: EventDetail } }).records.event
    expect(detail.id).toBe(own.id)
    expect(detail.note).toEqual([{ date: expect.any(Number), uname: 'admin', message: 'looking into it' }])
    expect((await viewer.post('/reports/events/note', { id: own.id, message: 'fixed' })).status).toBe(200)
    const notes = (await getEvent(viewer, own.id)).note
    expect(notes.map((n) => [n.uname, n.message])).toEqual([
      ['admin', 'looking into it'],
      ['viewer', 'fixed']
    ])
    expect(notes[0].date).toBeGreaterThanOrEqual(Math.floor(asked))
    expect(notes[0].date).toBeLessThanOrEqual(Math.ceil(answered))
    const [entry] = (await list(admin, { datefrom: own.date, dateto: own.date, hostid: host.alpha })).records
    expect(entry.note).toBe(1)
    expect(entry).not.toHaveProperty('notes')
    // notes=1 (ours, for the CSV export): each record's notes, oldest first; none is an empty list.
    const around = (await list(admin, { datefrom: own.date - 3600, dateto: own.date + 3600, hostid: host.alpha, notes: 1 })).records
    expect(around.find((e) => e.id === own.id)!.notes).toEqual(notes)
    const others = around.filter((e) => e.id !== own.id && e.note === 0)
    expect(others.length).toBeGreaterThan(0)
    expect(others.every((e) => Array.isArray(e.notes) && e.notes.length === 0)).toBe(true)
    expectError(await admin.get('/api/1/reports/events/list', { notes: 2 }), 400, /'notes'/)
    const stored = server.store.sql.all(
      server.store.db.selectFrom('event_note').select(['user_id', 'uname']).where('event_id', '=', own.id)
    )
    expect(stored.map((n) => n.uname)).toEqual(['admin', 'viewer'])
    expect(stored.every((n) => typeof n.user_id === 'number')).toBe(true)
  })

  it('answers 400 for a missing or too long message, 404 for events the caller may not view, 405 on GET', async () => {
    const own = model().find((e) => e.hostid === host.alpha)!
    expectError(await admin.post('/api/1/reports/events/note', { id: own.id }), 400, /'message'/)
    expectError(await admin.post('/api/1/reports/events/note', { id: own.id, message: '  ' }), 400, /'message'/)
    expectError(await admin.post('/api/1/reports/events/note', { id: own.id, message: 'x'.repeat(4001) }), 400, /'message'/)
    expect((await admin.post('/api/1/reports/events/note', { id: own.id, message: 'x'.repeat(4000) })).status).toBe(200)
    const other = model().find((e) => e.hostid === host.bravo)!
    expectError(await viewer.post('/api/1/reports/events/note', { id: other.id, message: 'hi' }), 404, /no event/)
    expectError(await admin.post('/api/1/reports/events/note', { id: 99_999_999, message: 'hi' }), 404, /no event/)
    expect((await admin.get('/api/1/reports/events/note', { id: own.id, message: 'hi' })).status).toBe(405)
  })
})
