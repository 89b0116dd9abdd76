// admin/alerts/deliveries/list (issue 13, our extension): the delivery log, newest first, paged as
// reports/events/list is (results, startindex; past the end is an empty page).
import { alertDeliveryList, alertDeliveryStatuses, type AlertDelivery, type AlertDeliveryList } from '../../shared/api/alerts'
import { endpoint, type ApiEndpoint } from '../http/api'
import { arg, pageArgs } from '../../shared/api/args'
import type { DeliveryOutboxRow, DeliveryRow } from '../store/alert-deliveries'
import type { ApiDeps } from './deps'

const DEFAULT_PAGE = 100
const MAX_PAGE = 1000

const listParams = {
  channelid: arg.int().optional(),
  ruleid: arg.int().optional(),
  status: arg.oneOf(alertDeliveryStatuses).optional(),
  datefrom: arg.int('a unix timestamp').optional(),
  dateto: arg.int('a unix timestamp').optional(),
  ...pageArgs
}

export function adminAlertDeliveryEndpoints({ store }: ApiDeps): ApiEndpoint[] {
  const deliveries = store.alertDeliveries
  return [
    endpoint({
      path: 'admin/alerts/deliveries/list',
      pureRead: true,
      summary: 'The delivery log, newest first, filtered and paged',
      extension: true,
      answer: alertDeliveryList,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: listParams,
      handle: ({ params }): AlertDeliveryList => {
        const filter = {
          channelId: params.channelid,
          ruleId: params.ruleid,
          status: params.status,
          dateFrom: params.datefrom,
          dateTo: params.dateto
        }
        const startIndex = params.startindex ?? 0
        const pageSize = Math.min(params.results ?? DEFAULT_PAGE, MAX_PAGE)
        const totalRecords = deliveries.deliveryCount(filter)
        const rows = startIndex < totalRecords ? deliveries.deliveries(filter, startIndex, pageSize) : []
        const outbox = rows.length > 0 ? deliveries.outboxOf(rows.map((r) => r.id)) : []
        return {
          records: rows.map((r) =>
            entry(
              r,
              outbox.filter((o) => o.notification_id === r.id)
            )
          ),
          recordsReturned: rows.length,
          pageSize,
          totalRecords,
          startIndex
        }
      }
    })
  ]
}

function entry(r: DeliveryRow, outbox: DeliveryOutboxRow[]): AlertDelivery {
  const rules = new Map<number, string>()
  for (const o of outbox) if (o.rule_id !== null && o.rule_name !== null) rules.set(o.rule_id, o.rule_name)
  return {
    id: r.id,
    uid: r.uid,
    channel: { id: r.channel_id, name: r.channel_name, type: r.channel_type },
    rules: [...rules].map(([id, name]) => ({ id, name })),
    events: [...new Set(outbox.flatMap((o) => (o.event_id === null ? [] : [o.event_id])))],
    kinds: [...new Set(outbox.map((o) => o.kind))],
    summary: r.summary,
    link: r.link,
    alerts: r.alert_count,
    status: r.status,
    attempts: r.attempts,
    lasterror: r.last_error,
    log: r.log,
    createdat: r.created_at,
    deliveredat: r.delivered_at,
    nextattemptat: r.next_attempt_at
  }
}
