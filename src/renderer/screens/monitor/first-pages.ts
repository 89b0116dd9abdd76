// The first pages the dashboard and the hosts list show, as queries of their own: the routes start
// loading them with the screen's code (app/routes.ts), so the answer and the script arrive in parallel.
import { forecastListQuery } from '../../api/forecasts'
import { hostOverviewPageQuery, type HostOverviewFilter } from '../../api/overview'

/** Rows per page of the hosts list; later pages load as the list scrolls. */
export const HOST_PAGE_SIZE = 100

export function firstHostPageQuery(filter: HostOverviewFilter) {
  return hostOverviewPageQuery(filter, 0, HOST_PAGE_SIZE)
}

/** Silent hosts, then red, then orange, each the longest failing first (the server's 'attention' order). */
const ATTENTION: HostOverviewFilter = { led: [0, 1], sort: 'attention', dir: 'asc' }
const ATTENTION_SHOWN = 20

/** The dashboard's hosts needing attention. */
export const attentionQuery = hostOverviewPageQuery(ATTENTION, 0, ATTENTION_SHOWN)

/** The dashboard's "Running out": the ten resources full soonest within a week. */
export const RUNNING_OUT_DAYS = 7
export const runningOutQuery = forecastListQuery(RUNNING_OUT_DAYS * 24, 10)
