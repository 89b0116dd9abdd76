// The API's enumerations the console reads before any answer (sort keys, actions, statuses), as plain
// constants: the schema modules re-export them, and the console's first script gets them without zod.

/** status/hosts/list's `sort` values; anything else falls back to 'led'. */
export const hostSortKeys = ['led', 'hostname', 'events', 'cpu', 'mem', 'status'] as const
export type HostSortKey = (typeof hostSortKeys)[number]

/** status/hosts/overview's `sort`: the hosts list's keys, plus 'attention' (silent, red, orange, longest failing first). */
export const overviewSortKeys = [...hostSortKeys, 'attention', 'lastreport'] as const
export type OverviewSortKey = (typeof overviewSortKeys)[number]

/** status/services/list's `sort`; 'attention' is red, orange, gray, green, then longest failing first. */
export const serviceListSortKeys = ['attention', 'hostname', 'name', 'type', 'status', 'since'] as const
export type ServiceListSortKey = (typeof serviceListSortKeys)[number]

/** reports/events/list's `sort` values; anything else falls back to 'date'. */
export const eventSortKeys = ['date', 'hostname', 'servicename', 'event', 'note'] as const
export type EventSortKey = (typeof eventSortKeys)[number]

export const serviceActions = ['start', 'stop', 'restart', 'monitor', 'unmonitor'] as const
export type ServiceAction = (typeof serviceActions)[number]

export const alertDeliveryStatuses = ['pending', 'delivered', 'failed', 'suppressed'] as const
export type AlertDeliveryStatus = (typeof alertDeliveryStatuses)[number]
