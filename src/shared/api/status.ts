// The contracts of status/hosts/{list,get,summary}, shared by the server and the console.
import { z } from 'zod'
import { sortedPageOf } from './common'

export type { SortDir } from './common'

export { hostSortKeys, type HostSortKey } from './keys'

/** One host of status/hosts/list's `records`. */
export const hostStatusEntry = z.object({
  id: z.number().int(),
  led: z.number().int(),
  hostname: z.string(),
  events: z.number().int(),
  cpu: z.number().describe('0 when not reported'),
  mem: z.number().describe('0 when not reported'),
  status: z.string(),
  statusid: z.number().int(),
  heartbeat: z.number().int().describe('0: no report within the expected time, 1: alive')
})
export type HostStatusEntry = z.infer<typeof hostStatusEntry>

export const hostListAnswer = sortedPageOf(hostStatusEntry)
export type HostList = z.infer<typeof hostListAnswer>

/** A service's latest statistic in status/hosts/get. */
export const statisticEntry = z.object({
  id: z.number().int(),
  type: z.number().int(),
  descriptor: z.string(),
  value: z.union([z.number(), z.string()])
})
export type StatisticEntry = z.infer<typeof statisticEntry>

/** One service of status/hosts/get's `host.services`. */
export const serviceEntry = z.object({
  id: z.number().int(),
  name: z.string(),
  nameid: z.number().int(),
  type: z.string(),
  typeid: z.number().int(),
  monitorstate: z.number().int(),
  monitormode: z.number().int(),
  onreboot: z.number().int(),
  status: z.string(),
  led: z.number().int(),
  events: z.number().int(),
  every: z.string(),
  group: z.array(z.string()),
  pid: z.number().int().optional(),
  ppid: z.number().int().optional(),
  statistics: z.array(statisticEntry)
})
export type ServiceEntry = z.infer<typeof serviceEntry>

export const hostDetail = z.object({
  id: z.number().int(),
  name: z.string(),
  hostname: z.string(),
  led: z.number().int(),
  status: z.string(),
  statusid: z.number().int(),
  heartbeat: z.number().int(),
  platform: z.object({ name: z.string(), release: z.string(), version: z.string(), machine: z.string() }),
  cpu: z.object({ count: z.number().int() }),
  memory: z.object({ size: z.number() }),
  swap: z.object({ size: z.number() }),
  uptime: z.string().describe('The system\'s own uptime, e.g. "3d 2h 10m"; empty when the agent does not report it'),
  agent: z.object({
    id: z.string(),
    version: z.string(),
    controlfile: z.string(),
    poll: z.number().int(),
    startdelay: z.number().int(),
    uptime: z.string()
  }),
  monit: z.object({ version: z.string(), uptime: z.string() }),
  services: z.array(serviceEntry)
})
export type HostDetail = z.infer<typeof hostDetail>

/** api/1 has `is_user_admin` and `host` only; api/2 and the legacy paths add `serviceactions` and the paging fields. */
export const hostGetAnswer = sortedPageOf(serviceEntry)
  .omit({ records: true })
  .partial()
  .extend({
    records: z.object({ is_user_admin: z.boolean(), serviceactions: z.boolean().optional(), host: hostDetail })
  })
export type HostGetAnswer = z.infer<typeof hostGetAnswer>

/** status/hosts/summary's categories, in the server's order. */
export const hostCategoryLabels = ['failed', 'services failed', 'some services failed/unmonitored', 'ok', 'inactive', 'ignored'] as const
export type HostCategory = (typeof hostCategoryLabels)[number]

export const hostSummaryAnswer = z.object({
  status: z.array(z.object({ label: z.enum(hostCategoryLabels), data: z.number().int() }))
})
export type HostSummary = z.infer<typeof hostSummaryAnswer>
