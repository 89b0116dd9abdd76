// status/hosts/list, status/hosts/get and status/hosts/summary (spec: Status hosts; compat 6.1–6.3,
// PAGE-1..4). Every read covers only the hosts the caller may view; a host it may not view answers
// exactly like one that does not exist.
import type { SortDir } from '../../shared/api/common'
import {
  hostCategoryLabels,
  hostGetAnswer,
  hostListAnswer,
  hostSortKeys,
  hostSummaryAnswer,
  type HostCategory,
  type ServiceEntry,
  type StatisticEntry
} from '../../shared/api/status'
import { Permission, serviceTypeLabels, ServiceType, Stat } from '../../shared/codes'
import { hostCategory } from '../domain/host-state'
import { mayOnHost, viewableHostIds } from '../domain/permissions'
import { decodeStatistics, statisticKey, type LatestStatistic, type StatisticKey } from '../store/latest-statistics'
import { endpoint, type ApiEndpoint } from '../http/api'
import { HttpError } from '../http/errors'
import { arg, idList, sortedPageArgs } from '../../shared/api/args'
import { groupBy, hostListParams, hostPageArgs, ledCodes, oneOf, page, pageFields, sortDir } from './status-args'
import type { HostDetailRow, HostSelection, ServiceRow, StatusRepository } from '../store/status'
import type { ApiDeps } from './deps'

export function statusEndpoints(deps: ApiDeps): ApiEndpoint[] {
  const status = deps.store.status
  return [
    endpoint({
      path: 'status/hosts/list',
      pureRead: true,
      summary: 'Hosts with their status, filtered, sorted and paged',
      answer: hostListAnswer,
      methods: ['GET', 'POST'],
      params: hostListParams,
      handle: ({ params, principal }) => {
        const { selection, sort, dir, total, startIndex, pageSize } = hostPageArgs(params, principal, hostSortKeys, 'led', (s) =>
          status.countHosts(s)
        )
        const records = status.hostPage(selection, sort, dir, startIndex, pageSize)
        return { records, ...pageFields(records.length, total, startIndex, pageSize, sort, dir) }
      }
    }),

    endpoint({
      path: 'status/hosts/get',
      pureRead: true,
      summary: "One host's details and its services, filtered, sorted and paged",
      answer: hostGetAnswer,
      methods: ['GET', 'POST'],
      params: { id: arg.int(), led: ledCodes, servicepattern: arg.text().optional(), ...sortedPageArgs },
      handle: ({ params, principal, version }) => {
        const host = mayOnHost(principal, params.id, Permission.View) ? status.host(params.id) : undefined
        if (!host) throw new HttpError(404, `no host with id ${params.id}`)
        const services = serviceEntries(status, host.id)
        const shown = services.filter(
          (s) => (!params.led?.length || params.led.includes(s.led)) && containsText(s.name, params.servicepattern)
        )
        const sort = oneOf(serviceSortKeys, params.sort, 'position')
        const dir = sortDir(params.dir)
        const { startIndex, pageSize } = page(shown.length, params)
        const pageOfServices = sortServices(shown, sort, dir).slice(startIndex, startIndex + pageSize)
        const detail = hostDetail(host, pageOfServices, systemUptime(services))
        // api/1 knows only these two; api/2 and the legacy paths add the service-action flag and paging.
        if (version === 1) return { records: { is_user_admin: principal.admin, host: detail } }
        const serviceactions = mayOnHost(principal, host.id, Permission.ServiceActions)
        return {
          records: { is_user_admin: principal.admin, serviceactions, host: detail },
          ...pageFields(pageOfServices.length, shown.length, startIndex, pageSize, sort, dir)
        }
      }
    }),

    endpoint({
      path: 'status/hosts/summary',
      pureRead: true,
      summary: 'How many hosts are in each status category',
      answer: hostSummaryAnswer,
      methods: ['GET', 'POST'],
      params: { hostid: idList, hostgroupid: idList },
      handle: ({ params, principal }) => {
        const counts = new Map<HostCategory, number>(hostCategoryLabels.map((c) => [c, 0]))
        const selection: HostSelection = { visible: viewableHostIds(principal), hostIds: params.hostid, groupIds: params.hostgroupid }
        for (const { hosts, ...condition } of status.hostConditions(selection)) {
          const category = hostCategory(condition)
          counts.set(category, counts.get(category)! + hosts)
        }
        return { status: hostCategoryLabels.map((label) => ({ label, data: counts.get(label)! })) }
      }
    })
  ]
}

function containsText(name: string, pattern: string | undefined): boolean {
  return !pattern || name.toLowerCase().includes(pattern.toLowerCase())
}

// ---- host detail ----

/** Statistics whose value is only their text (the stored number is a placeholder). */
const textStatistics = new Set<number>([Stat.Flags, Stat.Checksum, Stat.ProgramOutput, Stat.FilesystemType])

/** Services per agent order, with their statistics and groups: four queries, whatever the count. */
function serviceEntries(status: StatusRepository, hostId: number): ServiceEntry[] {
  const groups = groupBy(status.serviceGroups(hostId), (g) => g.service_name_id)
  const ids = status.statisticIds(hostId)
  return status.services(hostId).map((s) =>
    serviceEntry(
      s,
      (groups.get(s.name_id) ?? []).map((g) => g.name),
      ids.get(s.id) ?? new Map()
    )
  )
}

function serviceEntry(s: ServiceRow, group: string[], statisticIds: ReadonlyMap<StatisticKey, number>): ServiceEntry {
  const stats = decodeStatistics(s.statistics)
  const entry: ServiceEntry = {
    id: s.id,
    name: s.name,
    nameid: s.name_id,
    type: serviceTypeLabels[s.type] ?? 'Unknown',
    typeid: s.type,
    monitorstate: s.monitor,
    monitormode: s.monitor_mode,
    onreboot: s.on_reboot,
    status: s.status_text,
    led: s.led,
    events: s.events_count,
    every: s.every ?? '',
    group,
    statistics: stats.map((st) => statisticEntry(st, statisticIds.get(statisticKey(st.type, st.descriptor)) ?? 0))
  }
  if (s.type === ServiceType.Process) {
    const pid = stats.find((st) => st.type === Stat.Pid)
    const ppid = stats.find((st) => st.type === Stat.PPid)
    if (pid) entry.pid = pid.value
    if (ppid) entry.ppid = ppid.value
  }
  return entry
}

function statisticEntry(st: LatestStatistic, id: number): StatisticEntry {
  const value = st.text !== null && textStatistics.has(st.type) ? st.text : st.value
  return { id, type: st.type, descriptor: st.descriptor, value }
}

const serviceSortKeys = ['position', 'led', 'type', 'name', 'status', 'events'] as const
type ServiceSortKey = (typeof serviceSortKeys)[number]

const serviceSortValue: Record<Exclude<ServiceSortKey, 'position'>, (s: ServiceEntry) => number | string> = {
  led: (s) => s.led,
  type: (s) => s.typeid,
  name: (s) => s.name,
  status: (s) => s.status,
  events: (s) => s.events
}

/** `services` come in agent order ('position'); the sort is stable, so ties keep that order. */
function sortServices(services: ServiceEntry[], sort: ServiceSortKey, dir: SortDir): ServiceEntry[] {
  if (sort === 'position') return dir === 'desc' ? services.reverse() : services
  const value = serviceSortValue[sort]
  const sign = dir === 'desc' ? -1 : 1
  return services.sort((a, b) => {
    const x = value(a)
    const y = value(b)
    return x < y ? -sign : x > y ? sign : 0
  })
}

function systemUptime(services: readonly ServiceEntry[]): number | undefined {
  const system = services.find((s) => s.typeid === ServiceType.System)
  const uptime = system?.statistics.find((st) => st.type === Stat.SystemUptime)?.value
  return typeof uptime === 'number' ? uptime : undefined
}

function hostDetail(h: HostDetailRow, services: ServiceEntry[], systemUptimeSeconds: number | undefined) {
  const agentUptime = uptimeText(h.agent_uptime)
  return {
    id: h.id,
    name: h.hostname,
    hostname: h.hostname,
    led: h.led,
    status: h.status_text,
    statusid: h.status,
    heartbeat: h.heartbeat,
    platform: { name: h.platform_name, release: h.platform_release, version: h.platform_version, machine: h.platform_machine },
    cpu: { count: h.cpu_count },
    memory: { size: h.memory_kb },
    swap: { size: h.swap_kb },
    // The system's own uptime; empty when the agent does not report it.
    uptime: systemUptimeSeconds === undefined ? '' : uptimeText(systemUptimeSeconds),
    agent: {
      id: h.agent_id,
      version: h.agent_version,
      controlfile: h.control_file,
      poll: h.poll,
      startdelay: h.start_delay,
      uptime: agentUptime
    },
    monit: { version: h.agent_version, uptime: agentUptime },
    services
  }
}

/** "3d 2h 10m", "1h 5m", "0m": from the largest non-zero unit down to minutes (compat 6.2 sample). */
function uptimeText(seconds: number): string {
  const days = Math.floor(seconds / 86_400)
  const hours = Math.floor((seconds % 86_400) / 3_600)
  const minutes = Math.floor((seconds % 3_600) / 60)
  if (days > 0) return `${days}d ${hours}h ${minutes}m`
  if (hours > 0) return `${hours}h ${minutes}m`
  return `${minutes}m`
}
