// reports/uptime/list keeps its measurement of every host while nothing measured has changed (issue 28,
// migration 023): each kind of change, written through another connection as the collector's thread or
// another instance would, shows in the very next answer; the same collector message again changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UptimeReport } from '../../src/shared/api/uptime'
import { HostStatus, MonitorState } from '../../src/shared/codes'
import { Store } from '../../src/server/store/store'
import type { ApiClient } from '../support/api-client'
import { asAgent, fixture } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/in-process-server'

const MIN = 60
const HOUR = 3600
const DAY = 86400
// A past day on the minute grid: the answers over it are exact whatever the clock says.
const T0 = Math.floor(Date.now() / 1000 / MIN) * MIN - 10 * DAY

let server: TestServer
let admin: ApiClient
/** Another connection to the same database. */
let other: Store
const id: Record<string, number> = {}
let failingNameId: number

const payload = (agent: string, hostname: string) => asAgent(fixture('02-status-heartbeat'), agent.repeat(32), hostname)

async function list(): Promise<UptimeReport> {
  const res = await admin.get('/api/2/reports/uptime/list', { range: 12, datefrom: T0, dateto: T0 + DAY })
  expect(res.status).toBe(200)
  return res.json as UptimeReport
}

const item = (report: UptimeReport, hostId: number) => report.items.find((i) => i.id === hostId)

beforeAll(async () => {
  server = await startTestServer()
  await server.collect(payload('a', 'alpha'))
  await server.collect(payload('b', 'bravo'))
  other = new Store(server.store.location)
  const { db, sql } = other
  for (const h of sql.all(db.selectFrom('host').select(['id', 'hostname']))) id[h.hostname] = h.id
  sql.run(db.updateTable('host').set({ created_at: T0 - DAY }))
  failingNameId = sql.first(
    db.selectFrom('service').select('name_id').where('host_id', '=', id.alpha).orderBy('position').offset(1).limit(1)
  )!.name_id
  sql.run(db.insertInto('state_interval').values({ host_id: id.alpha, service_name_id: failingNameId, start: T0, end: T0 + 6 * HOUR }))
  admin = await server.loginAsAdmin()
})

afterAll(async () => {
  other?.close()
  await server?.close()
})

describe('reports/uptime/list, asked again', () => {
  it('answers the same while nothing changed, and a repeated collector message changes nothing it measures', async () => {
    const first = await list()
    expect(await list()).toEqual(first)
    const generation = server.store.uptime.host(id.alpha)!.uptime_generation
    await server.collect(payload('a', 'alpha'))
    expect(server.store.uptime.host(id.alpha)!.uptime_generation).toBe(generation)
    expect(await list()).toEqual(first)
  })

  it('shows a silence written, ended later and removed', async () => {
    const { db, sql } = other
    const before = item(await list(), id.alpha)!
    expect(before.downtimeseconds).toBe(0)
    const { id: silence } = sql.first(
      db
        .insertInto('state_interval')
        .values({ host_id: id.alpha, service_name_id: null, start: T0 + HOUR, end: T0 + 2 * HOUR })
        .returning('id')
    )!
    expect(item(await list(), id.alpha)!.downtimeseconds).toBe(HOUR)
    sql.run(
      db
        .updateTable('state_interval')
        .set({ end: T0 + 3 * HOUR })
        .where('id', '=', silence)
    )
    expect(item(await list(), id.alpha)!.downtimeseconds).toBe(2 * HOUR)
    sql.run(db.deleteFrom('state_interval').where('id', '=', silence))
    expect(item(await list(), id.alpha)!).toEqual(before)
  })

  it('shows a service no longer monitored, and one removed', async () => {
    const { db, sql } = other
    const failing = item(await list(), id.alpha)!.servicesup
    expect(failing).toBeLessThan(100)
    const monitor = sql.first(
      db.selectFrom('service').select('monitor').where('host_id', '=', id.alpha).where('name_id', '=', failingNameId)
    )!.monitor
    sql.run(
      db.updateTable('service').set({ monitor: MonitorState.Off }).where('host_id', '=', id.alpha).where('name_id', '=', failingNameId)
    )
    expect(item(await list(), id.alpha)!.servicesup).toBe(100)
    sql.run(db.updateTable('service').set({ monitor }).where('host_id', '=', id.alpha).where('name_id', '=', failingNameId))
    expect(item(await list(), id.alpha)!.servicesup).toBe(failing)
    sql.run(db.deleteFrom('service').where('host_id', '=', id.alpha).where('name_id', '=', failingNameId))
    expect(item(await list(), id.alpha)!.servicesup).toBe(100)
  })

  it('places a host added, or renamed, where its name sorts', async () => {
    const names = (report: UptimeReport) => report.items.map((i) => i.name)
    await server.collect(payload('c', 'charlie'))
    expect(names(await list())).toEqual(['alpha', 'bravo', 'charlie'])
    const { db, sql } = other
    sql.run(db.updateTable('host').set({ hostname: 'zulu' }).where('id', '=', id.alpha))
    expect(names(await list())).toEqual(['bravo', 'charlie', 'zulu'])
    sql.run(db.updateTable('host').set({ hostname: 'alpha' }).where('id', '=', id.alpha))
    sql.run(db.deleteFrom('host').where('hostname', '=', 'charlie'))
    expect(names(await list())).toEqual(['alpha', 'bravo'])
  })

  it("shows a host's new name, its status, its first report and its removal", async () => {
    const { db, sql } = other
    sql.run(db.updateTable('host').set({ hostname: 'alpha-renamed' }).where('id', '=', id.alpha))
    expect(item(await list(), id.alpha)!.name).toBe('alpha-renamed')
    sql.run(db.updateTable('host').set({ status: HostStatus.Inactive }).where('id', '=', id.alpha))
    expect(item(await list(), id.alpha)!.active).toBe(0)
    sql.run(
      db
        .updateTable('host')
        .set({ created_at: T0 + 12 * HOUR })
        .where('id', '=', id.bravo)
    )
    expect(item(await list(), id.bravo)!.unknownseconds).toBe(12 * HOUR)
    sql.run(db.deleteFrom('host').where('id', '=', id.bravo))
    expect(item(await list(), id.bravo)).toBeUndefined()
  })

  it('counts events as they come (never kept)', async () => {
    const { db, sql } = other
    const before = item(await list(), id.alpha)!.events
    sql.run(
      db.insertInto('event').values({
        host_id: id.alpha,
        service_name_id: failingNameId,
        service_name: 'x',
        service_type: 5,
        class: 512,
        state: 1,
        action: 1,
        message: 'test',
        collected_usec: (T0 + HOUR) * 1_000_000,
        date: T0 + HOUR
      })
    )
    expect(item(await list(), id.alpha)!.events).toBe(before + 1)
  })
})
