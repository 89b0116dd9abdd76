// Alerting administration (issue 13, our extension: admin/alerts/* under /api/2). Query keys start with
// 'admin' so that the live stream refreshes host pickers and mutes when hosts come or go.
import { queryOptions } from '@tanstack/react-query'
import type {
  AlertChannelList,
  AlertChannelRecord,
  AlertDeliveryList,
  AlertDeliveryStatus,
  AlertMuteList,
  AlertRuleList,
  AlertRuleRecord,
  AlertRuleScope
} from '../../shared/api/alerts'
import type { Created, TestOutcome } from '../../shared/api/common'
import { apiGet, apiPost, type ApiParams } from './client'
import { rangeDates } from './events'
import type { UptimeSearch } from './uptime'

export type {
  AlertChannelRecord,
  AlertDelivery,
  AlertDeliveryList,
  AlertDeliveryStatus,
  AlertMuteRecord,
  AlertRuleRecord,
  AlertRuleScope
} from '../../shared/api/alerts'

/** A list sent as one empty value: the API reads it as "clear the list" (an absent one is "keep"). */
const listArg = (values: readonly number[]): readonly (string | number)[] => (values.length > 0 ? values : [''])

// ---- channels ----

export const alertChannelsQuery = queryOptions({
  queryKey: ['admin', 'alerts', 'channels'] as const,
  queryFn: () => apiGet<AlertChannelList>('admin/alerts/channels/list')
})

/** The channel's settings as arguments: `settings` by the API's names, lists repeated. */
export interface ChannelChange {
  type: string
  name: string
  enabled: boolean
  settings: ApiParams
}

export const createChannel = (c: ChannelChange) =>
  apiPost<Created>('admin/alerts/channels/create', { ...c.settings, type: c.type, name: c.name, enabled: c.enabled })
export const updateChannel = (id: number, c: Omit<ChannelChange, 'type'>) =>
  apiPost<AlertChannelRecord>('admin/alerts/channels/update', { ...c.settings, id, name: c.name, enabled: c.enabled })
export const deleteChannel = (id: number) => apiPost('admin/alerts/channels/delete', { id })
/** Sends a test notification through the stored channel: green, or red with the channel's own error. */
export const testChannel = (id: number) => apiPost<TestOutcome>('admin/alerts/channels/test', { id })

// ---- rules ----

export type RuleDraft = Omit<AlertRuleRecord, 'id' | 'createdat'>

export const alertRulesQuery = queryOptions({
  queryKey: ['admin', 'alerts', 'rules'] as const,
  queryFn: () => apiGet<AlertRuleList>('admin/alerts/rules/list')
})

function ruleParams(r: RuleDraft): ApiParams {
  return {
    name: r.name,
    enabled: r.enabled,
    channelid: listArg(r.channelid),
    hostid: listArg(r.hostid),
    hostgroupid: listArg(r.hostgroupid),
    // An empty pattern must reach the server on update (it clears the stored one): a one-item list.
    servicepattern: [r.servicepattern],
    servicetype: listArg(r.servicetype),
    state: listArg(r.state),
    eventtype: r.eventtype,
    heartbeat: r.heartbeat,
    groupwait: r.groupwait,
    reminder: r.reminder,
    recovery: r.recovery
  }
}

/** `notifyactive`: also notify the failures active now in the rule's scope (rulesInScope says how many). */
export const saveRule = (id: number | undefined, r: RuleDraft, notifyactive = false) =>
  id === undefined
    ? apiPost<Created>('admin/alerts/rules/create', { ...ruleParams(r), notifyactive })
    : apiPost<AlertRuleRecord>('admin/alerts/rules/update', { ...ruleParams(r), id, notifyactive })
/** The failures active now that the rule as drafted would page about and has not told of. */
export const ruleInScope = (id: number | undefined, r: RuleDraft) =>
  // POST: a rule's lists of hosts and groups can outgrow a URL.
  apiPost<AlertRuleScope>('admin/alerts/rules/inscope', id === undefined ? ruleParams(r) : { ...ruleParams(r), id })
export const deleteRule = (id: number) => apiPost('admin/alerts/rules/delete', { id })

// ---- mutes ----

/** The active mutes, or (`ended`) every mute, those that ended too: a maintenance log. */
export const mutesQuery = (ended: boolean) =>
  queryOptions({
    queryKey: ['admin', 'alerts', 'mutes', ended] as const,
    queryFn: () => apiGet<AlertMuteList>('admin/alerts/mutes/list', ended ? { ended: true } : {})
  })

export const alertMutesQuery = mutesQuery(false)

export interface MuteChange {
  hostid: number
  serviceid?: number
  until: number
  reason: string
}

export const createMute = (m: MuteChange) => apiPost<Created>('admin/alerts/mutes/create', { ...m })
export const endMute = (id: number) => apiPost('admin/alerts/mutes/end', { id })

// ---- delivery log ----

export interface DeliverySearch extends UptimeSearch {
  channel?: number
  rule?: number
  status?: AlertDeliveryStatus
  page?: number
}

export const DELIVERY_PAGE_SIZE = 50

export const alertDeliveriesQuery = (s: DeliverySearch) =>
  queryOptions({
    queryKey: ['admin', 'alerts', 'deliveries', s] as const,
    queryFn: () =>
      apiGet<AlertDeliveryList>('admin/alerts/deliveries/list', {
        ...rangeDates(s),
        channelid: s.channel,
        ruleid: s.rule,
        status: s.status,
        results: DELIVERY_PAGE_SIZE,
        startindex: ((s.page ?? 1) - 1) * DELIVERY_PAGE_SIZE
      }),
    // Deliveries happen on the server's own clock (group wait, retries) and the live stream does not carry
    // them: the open log re-reads itself.
    refetchInterval: 10_000
  })
