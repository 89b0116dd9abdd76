// What M/Monit's HTTP API tells, laid out as the rows of its database tables (spec/mmonit-database.md),
// so that the database import's steps read it unchanged: hosts with their agent credentials
// (admin/hosts/get), platform and services (status/hosts/get), host groups, users (api/1
// admin/users/get) with their roles (api/2 admin/roles/list), events page by page (reports/events/list)
// with their detail (reports/events/get: event class, action, notes). What the API does not give stays
// out: statistics history, alert rules (API_CANNOT_GIVE).
import { actionLabels, eventClasses, serviceTypeLabels } from '../../../shared/codes'
import type { MMonitApiSession } from './api-source-session'
import type { SourceRow } from '../../store/mmonit-source/source'
import { EVENT_COLUMNS } from './events'
import { HOST_COLUMNS } from './hosts'
import { SERVICE_COLUMNS } from './services'

/** Said in the report of an import over the API. */
export const API_CANNOT_GIVE = [
  'statistics history (the API gives current values only)',
  'alert rules, mail and Jabber servers, message formats (the API has no endpoint for them)',
  "custom roles' host permissions (users keep the administrator or user role)",
  'passwords of agents or users that the server does not return (set them again here)'
]

/** Events asked per reports/events/list page. */
const EVENT_PAGE = 500

export interface Table {
  columns: readonly string[]
  rows: SourceRow[]
}

/** Every table the import's steps read, filled from the API; `notes` lists what could not be read. */
export async function readApiTables(api: MMonitApiSession): Promise<{ tables: Map<string, Table>; notes: string[] }> {
  const names = new Names()
  const notes: string[] = []
  const tables = new Map<string, Table>()
  const put = (name: string, columns: readonly string[], rows: SourceRow[]) => tables.set(name, { columns, rows })

  put('mmonit', ['schemaversion', 'skew'], [{ schemaversion: 15, skew: 3 }])
  const { users, userroles } = await readUsers(api, notes)
  put('users', USER_COLUMNS, users)
  put('userroles', ['uname', 'role'], userroles)
  const { hosts, services, serviceGroups, groupedServices } = await readHosts(api, names)
  put('host', HOST_COLUMNS, hosts)
  put('service', SERVICE_COLUMNS, services)
  put('servicegroup', ['id', 'nameid', 'hostid'], serviceGroups)
  put('groupedservices', ['servicegroupid', 'service_nameid'], groupedServices)
  const groups = await api.get<{ groups?: { id: number; name: string; hosts: number[] }[] }>(1, 'admin/groups/list')
  put(
    'hostgroup',
    ['id', 'nameid'],
    (groups.groups ?? []).map((g) => ({ id: g.id, nameid: names.id(g.name) }))
  )
  put(
    'groupedhost',
    ['groupid', 'hostid'],
    (groups.groups ?? []).flatMap((g) => g.hosts.map((hostid) => ({ groupid: g.id, hostid })))
  )
  const { events, notices, dismissed } = await readEvents(api, names, notes)
  put('event', EVENT_COLUMNS, events)
  put('eventnotice', ['eventid', 'date', 'uname', 'notice'], notices)
  put('eventfilter', ['eventid', 'uname'], dismissed)
  put('name', ['id', 'name'], names.rows())
  return { tables, notes }
}

/** M/Monit's string table, rebuilt: every host, service and group name once. */
class Names {
  private readonly ids = new Map<string, number>()
  id(name: string): number {
    let id = this.ids.get(name)
    if (id === undefined) this.ids.set(name, (id = this.ids.size + 1))
    return id
  }
  rows(): SourceRow[] {
    return [...this.ids].map(([name, id]) => ({ id, name }))
  }
}

const USER_COLUMNS = ['uname', 'password', 'fullname', 'title', 'email', 'phone', 'mobile', 'imname', 'imtype', 'image']

interface ApiUser {
  uname: string
  password?: string
  admin?: boolean
  [field: string]: unknown
}

async function readUsers(api: MMonitApiSession, notes: string[]) {
  const list = await api.get<ApiUser[]>(1, 'admin/users/list')
  const users: SourceRow[] = []
  const userroles: SourceRow[] = []
  for (const { uname } of list) {
    const user = await api.get<ApiUser>(1, 'admin/users/get', { uname })
    users.push(
      Object.fromEntries(USER_COLUMNS.map((c) => [c, typeof user[c] === 'string' ? (user[c] as string) : c === 'uname' ? uname : '']))
    )
    userroles.push({ uname, role: 'monit' })
    if (user.admin === true) userroles.push({ uname, role: 'admin' })
  }
  // api/2 roles: a custom role's host permissions have no M/Monit table to go through.
  // M/Monit 3.7 has no api/2: its users' admin flag is all there is.
  const roles = await api
    .get<{ name: string; admin?: boolean; buildin?: boolean; rolerows?: unknown[] }[]>(2, 'admin/roles/list')
    .catch((e: Error) => (notes.push(`roles: ${e.message}`), []))
  for (const role of roles) {
    if (!role.admin && !role.buildin && (role.rolerows ?? []).length > 0)
      notes.push(`role ${role.name}: its host permissions are not imported (its members keep the user role)`)
  }
  return { users, userroles }
}

interface AdminHost {
  id: number
  hostname: string
  keepname?: number
  description?: string
  ipaddrin?: string
  portin?: number
  sslin?: number
  ipaddrout?: string
  portout?: number
  sslout?: number
  agentid?: string
  agentuser?: string
  agentpassword?: string
  skew?: number
  poll?: number
  lastmodified?: number
}

interface HostDetail {
  platform?: { name?: string; release?: string; version?: string; machine?: string }
  cpu?: { count?: number }
  memory?: { size?: number }
  swap?: { size?: number }
  agent?: { version?: string; controlfile?: string; poll?: number; startdelay?: number }
  services?: {
    id: number
    name: string
    typeid?: number
    monitorstate?: number
    monitormode?: number
    onreboot?: number
    every?: string
    group?: string[]
  }[]
}

async function readHosts(api: MMonitApiSession, names: Names) {
  const list = await api.get<{ records?: { id: number }[] }>(1, 'admin/hosts/list')
  const hosts: SourceRow[] = []
  const services: SourceRow[] = []
  const groupIds = new Map<string, number>()
  const serviceGroups: SourceRow[] = []
  const groupedServices: SourceRow[] = []
  for (const { id } of list.records ?? []) {
    const host = await api.get<AdminHost>(1, 'admin/hosts/get', { id })
    const detail = (await api.get<{ records?: { host?: HostDetail } }>(1, 'status/hosts/get', { id })).records?.host ?? {}
    hosts.push({
      id,
      monitid: host.agentid ?? '',
      nameid: names.id(host.hostname),
      keepname: host.keepname ?? 0,
      description: host.description ?? '',
      ipaddrin: host.ipaddrin ?? '',
      portin: host.portin ?? -1,
      sslin: host.sslin ?? 0,
      ipaddrout: host.ipaddrout ?? '',
      portout: host.portout ?? -1,
      sslout: host.sslout ?? -1,
      uname: host.agentuser ?? '',
      password: host.agentpassword ?? '',
      poll: host.poll ?? detail.agent?.poll ?? 0,
      startdelay: detail.agent?.startdelay ?? 0,
      serviceskew: host.skew ?? 3,
      controlfilenameid: names.id(detail.agent?.controlfile ?? ''),
      version: detail.agent?.version ?? '',
      incarnation: 0,
      // The API does not say when M/Monit first saw a host: the import dates it from now.
      created_at: null,
      updated_at: host.lastmodified ?? 0,
      platformname: detail.platform?.name ?? '',
      platformrelease: detail.platform?.release ?? '',
      platformversion: detail.platform?.version ?? '',
      platformmachine: detail.platform?.machine ?? '',
      platformcpu: detail.cpu?.count ?? 0,
      platformmemory: detail.memory?.size ?? 0,
      platformswap: detail.swap?.size ?? 0
    })
    for (const s of detail.services ?? []) {
      services.push({
        id: s.id,
        hostid: id,
        nameid: names.id(s.name),
        type: s.typeid ?? 0,
        // The state comes back with the agent's next report; until then the service reads as fine.
        status: 0,
        statushint: 0,
        monitoringstate: s.monitorstate ?? 1,
        monitoringmode: s.monitormode ?? 0,
        onreboot: s.onreboot ?? 0,
        statusmodified: host.lastmodified ?? 0,
        ...everyColumns(s.every ?? '')
      })
      // Service groups are per host in M/Monit: one row per host and group name.
      for (const group of s.group ?? []) {
        const key = `${id}\u0000${group}`
        let groupId = groupIds.get(key)
        if (groupId === undefined) {
          groupIds.set(key, (groupId = groupIds.size + 1))
          serviceGroups.push({ id: groupId, nameid: names.id(group), hostid: id })
        }
        groupedServices.push({ servicegroupid: groupId, service_nameid: names.id(s.name) })
      }
    }
  }
  return { hosts, services, serviceGroups, groupedServices }
}

/** Monit's `every` as the API words it ("every 2 cycles", 'every "0 * * * *"', 'not every "…"') back in M/Monit's columns. */
function everyColumns(every: string): SourceRow {
  const cycles = /^every (\d+) cycles$/.exec(every)
  if (cycles) return { everytype: 2, everycyclenumber: Number(cycles[1]), everycron: '' }
  const cron = /^(not )?every "(.*)"$/.exec(every)
  if (cron) return { everytype: cron[1] ? 4 : 3, everycyclenumber: 0, everycron: cron[2] }
  return { everytype: 0, everycyclenumber: 0, everycron: '' }
}

interface EventEntry {
  id: number
  date: number
  hostid: number
  servicename: string
  event: string
  eventtype: number
  note: number
}

interface EventDetail {
  servicetype: string
  event: string
  eventstate: number
  action: string
  message: string
  note?: { date: number; uname: string; message: string }[]
  active?: number
  dismissed?: number
}

async function readEvents(api: MMonitApiSession, names: Names, notes: string[]) {
  const events: SourceRow[] = []
  const notices: SourceRow[] = []
  const dismissed: SourceRow[] = []
  const unknownClasses = new Set<string>()
  for (let start = 0; ; start += EVENT_PAGE) {
    const page = await api.get<{ records?: EventEntry[]; totalRecords?: number }>(1, 'reports/events/list', {
      results: EVENT_PAGE,
      startindex: start,
      sort: 'date',
      dir: 'asc'
    })
    const records = page.records ?? []
    for (const entry of records) {
      const detail = (await api.get<{ records?: { event?: EventDetail } }>(1, 'reports/events/get', { id: entry.id })).records?.event
      if (!detail) continue
      const cls = eventClassOf(detail.event, detail.eventstate)
      if (cls === 0) unknownClasses.add(detail.event)
      events.push({
        id: entry.id,
        hostid: entry.hostid,
        collectedsec: entry.date,
        // The API gives seconds: events of a service in the same second keep apart by their id.
        collectedusec: entry.id % 1_000_000,
        service_nameid: names.id(entry.servicename),
        servicetype: Math.max(0, serviceTypeLabels.indexOf(detail.servicetype as (typeof serviceTypeLabels)[number])),
        event: cls,
        state: detail.eventstate,
        action: Math.max(0, actionLabels.indexOf(detail.action.toLowerCase() as (typeof actionLabels)[number])),
        message: detail.message,
        active: detail.active ?? 0
      })
      for (const n of detail.note ?? []) notices.push({ eventid: entry.id, date: n.date, uname: n.uname, notice: n.message })
      if (detail.dismissed) dismissed.push({ eventid: entry.id, uname: '' })
    }
    if (records.length < EVENT_PAGE) break
  }
  for (const text of unknownClasses) notes.push(`event type "${text}" is not one Monit names: such events are imported without a type`)
  return { events, notices, dismissed }
}

/** The event class whose text for this state is `text` (Monit's own words, as M/Monit shows them); 0 when none. */
function eventClassOf(text: string, state: number): number {
  const key = state === 1 ? 'failed' : state === 2 ? 'changed' : 'succeeded'
  const match =
    eventClasses.find((c) => c[key] === text) ?? eventClasses.find((c) => [c.failed, c.succeeded, c.changed, c.changedNot].includes(text))
  return match?.id ?? 0
}
