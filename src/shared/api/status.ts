// The JSON shapes of our status/hosts/{list,get} answers, shared by the server and the console.

/** status/hosts/list's `sort` values; anything else falls back to 'led'. */
export const hostSortKeys = ['led', 'hostname', 'events', 'cpu', 'mem', 'status'] as const
export type HostSortKey = (typeof hostSortKeys)[number]
/** The `dir` of every paged list (status hosts and event reports alike). */
export type SortDir = 'asc' | 'desc'

/** One host of status/hosts/list's `records`. */
export interface HostStatusEntry {
  id: number
  led: number
  hostname: string
  events: number
  /** 0 when not reported */
  cpu: number
  /** 0 when not reported */
  mem: number
  status: string
  statusid: number
  /** 0: no report within the expected time, 1: alive */
  heartbeat: number
}

/** A service's latest statistic in status/hosts/get. */
export interface StatisticEntry {
  id: number
  type: number
  descriptor: string
  value: number | string
}

/** One service of status/hosts/get's `host.services`. */
export interface ServiceEntry {
  id: number
  name: string
  nameid: number
  type: string
  typeid: number
  monitorstate: number
  monitormode: number
  onreboot: number
  status: string
  led: number
  events: number
  every: string
  group: string[]
  pid?: number
  ppid?: number
  statistics: StatisticEntry[]
}
