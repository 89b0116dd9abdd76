// The contracts of the console's at-a-glance reads (ours, not M/Monit's): status/hosts/overview, the
// hosts list with what fails and since when, and status/services/list, every service across hosts.
import { z } from 'zod'
import { sortedPageOf } from './common'
import { hostStatusEntry } from './status'

export { overviewSortKeys, serviceListSortKeys, type OverviewSortKey, type ServiceListSortKey } from './keys'

const mutedUntil = z.number().int().nullable()

/** A red (failed) or orange (changed) service of a host. */
export const failingService = z.object({
  name: z.string(),
  led: z.number().int(),
  since: z.number().int().nullable().describe('Unix seconds of its oldest active failure event; null when none is open (an orange change)')
})
export type FailingService = z.infer<typeof failingService>

export const hostOverviewEntry = hostStatusEntry.extend({
  lastreport: z.number().int().describe("Unix seconds (server clock) of the host's last message"),
  failing: z.array(failingService).describe('Its red services first, then orange, in agent order'),
  since: z
    .number()
    .int()
    .nullable()
    .describe('Since when it needs attention: when it fell silent, else its oldest active failure; null when neither'),
  muted: mutedUntil.describe("Unix seconds until which the whole host's alerts are muted; null when it is not muted"),
  trend: z
    .array(z.number().int())
    .describe('The last 24 hours, one cell per hour, oldest first: 0 up, 1 a service down, 2 the host silent, 3 not known yet')
})
export type HostOverviewEntry = z.infer<typeof hostOverviewEntry>

/** One service of one host in status/services/list. */
export const serviceOverviewEntry = z.object({
  hostid: z.number().int(),
  hostname: z.string(),
  heartbeat: z.number().int().describe("The host's heartbeat: 0 when silent, so the service's state is stale"),
  id: z.number().int(),
  name: z.string(),
  type: z.string(),
  led: z.number().int(),
  status: z.string(),
  since: z.number().int().nullable(),
  lastreport: z.number().int().describe("Unix seconds (server clock) of the host's last message: when the state was last reported"),
  muted: mutedUntil.describe(
    'Unix seconds until which its alerts are muted (a mute of the service or of its whole host); null when not muted'
  )
})
export type ServiceOverviewEntry = z.infer<typeof serviceOverviewEntry>

export const hostOverviewAnswer = sortedPageOf(hostOverviewEntry)
export const serviceListAnswer = sortedPageOf(serviceOverviewEntry)

/** The paged answer of both reads (the api/2 paging fields). */
export interface OverviewPage<T> extends Omit<z.infer<typeof hostOverviewAnswer>, 'records'> {
  records: T[]
}
