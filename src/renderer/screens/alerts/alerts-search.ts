// Administration › Alerts' URL search: the tab, a channel form to open, and the delivery log's filters.
import { alertDeliveryStatuses } from '../../../shared/api/keys'
import { Range } from '../../../shared/ranges'
import type { DeliverySearch } from '../../api/alerts'
import { oneOf, optionalInt } from '../reports/search-params'

export const ALERT_TABS = ['channels', 'rules', 'mutes', 'deliveries'] as const
type Tab = (typeof ALERT_TABS)[number]

export interface AlertsSearch extends DeliverySearch {
  tab?: Tab
  /** Opens the new channel form for this type (a link from first-run setup) */
  new?: string
}

export function parseAlertsSearch(s: Record<string, unknown>): AlertsSearch {
  return {
    tab: oneOf(ALERT_TABS, s.tab),
    new: typeof s.new === 'string' && /^[a-z]{1,32}$/.test(s.new) ? s.new : undefined,
    channel: optionalInt(s.channel, 1),
    rule: optionalInt(s.rule, 1),
    status: oneOf(alertDeliveryStatuses, s.status),
    range: optionalInt(s.range, Range.Now, Range.Custom),
    from: optionalInt(s.from),
    to: optionalInt(s.to),
    page: optionalInt(s.page, 2)
  }
}
