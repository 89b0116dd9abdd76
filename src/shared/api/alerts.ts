// Alerting (issue 13, our extension of the API): the notification every channel sends, as the webhook
// channel posts it verbatim, and the contracts of admin/alerts/*. Shared by server, console and tests.
import { z } from 'zod'
import { pageOf } from './common'
import { alertDeliveryStatuses } from './keys'

export type AlertState = 'failed' | 'changed' | 'succeeded'

/** One event a notification tells of. */
export interface AlertItem {
  hostid: number
  host: string
  /** The service's id in status/hosts/get; null for the host's own heartbeat events. */
  serviceid: number | null
  service: string
  /** Monit's service type code (0–8) */
  servicetype: number
  /** The event type's name, e.g. "Nonexist", "Heartbeat" (map/id/event). */
  event: string
  state: AlertState
  message: string
  /** Unix seconds, the agent's time of the event */
  date: number
  /** The console page of the event */
  link: string
}

/** What one delivery to one channel says: one or several alerts grouped (rule groupwait). */
export interface AlertNotification {
  /** Stable across retries and restarts: receivers that de-duplicate key on it. */
  id: string
  /** e.g. "labprog failed on web-1", "5 services failed on 3 hosts" */
  summary: string
  /** The console page most relevant to the whole notification */
  link: string
  alerts: AlertItem[]
}

/** A channel as admin/alerts/channels/list and get answer it. */
export const alertChannelRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.string().describe('email, webhook, slack, … , desktop'),
  enabled: z.boolean(),
  subject: z.string().nullable().describe("The channel's templates; null: the default one"),
  body: z.string().nullable(),
  settings: z.record(z.string(), z.unknown()).describe("The type's settings, named as create's arguments, without the secrets"),
  secrets: z.record(z.string(), z.boolean()).describe('Per secret setting (write-only): whether it is set'),
  createdat: z.number().int().describe('Unix seconds')
})
export type AlertChannelRecord = z.infer<typeof alertChannelRecord>

export const alertChannelListAnswer = z.object({
  types: z.array(z.string()).describe('The channel types this server has'),
  records: z.array(alertChannelRecord)
})
export type AlertChannelList = z.infer<typeof alertChannelListAnswer>

/** A rule as admin/alerts/rules/list and get answer it: the arguments of create, as stored. */
export const alertRuleRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  channelid: z.array(z.number().int()),
  hostid: z.array(z.number().int()).describe('No host and no group: every host'),
  hostgroupid: z.array(z.number().int()),
  servicepattern: z.string().describe("'' matches every service"),
  servicetype: z.array(z.number().int()).describe('Service type codes; none: every type'),
  state: z.array(z.number().int()).describe('Event states that match: 0 succeeded, 1 failed, 2 changed'),
  eventtype: z.number().int().describe('Event type bits; 0: every type'),
  heartbeat: z.boolean(),
  groupwait: z.number().int().describe('Seconds'),
  reminder: z.number().int().describe('Minutes; 0: no reminders'),
  recovery: z.boolean(),
  createdat: z.number().int()
})
export type AlertRuleRecord = z.infer<typeof alertRuleRecord>

/** admin/alerts/rules/inscope: the failures active now that a rule (as given, before saving) pages about. */
export const alertRuleScopeAnswer = z.object({
  failures: z
    .number()
    .int()
    .describe('How many failures active now the rule pages about and has not told of (muted ones and ignored hosts left out)'),
  first: z
    .array(
      z.object({
        hostid: z.number().int(),
        host: z.string(),
        service: z.string(),
        what: z.string().describe('In words: "process nginx does not exist on web-1", "web-1 stopped reporting"'),
        date: z.number().int().describe('Unix seconds: when it failed')
      })
    )
    .describe('The oldest few')
})
export type AlertRuleScope = z.infer<typeof alertRuleScopeAnswer>

/** admin/alerts/rules/create: the new rule's id, and how many active failures `notifyactive` queued. */
export const alertRuleCreatedAnswer = z.object({
  id: z.number().int(),
  notified: z.number().int().describe('Failures active now queued to be notified (notifyactive); 0 without it')
})

export const alertRuleUpdatedAnswer = alertRuleRecord.extend({
  notified: z.number().int().describe('Failures active now queued to be notified (notifyactive); 0 without it')
})

export const alertRuleListAnswer = z.object({ records: z.array(alertRuleRecord) })
export type AlertRuleList = z.infer<typeof alertRuleListAnswer>

/** A mute as admin/alerts/mutes/list answers it. */
export const alertMuteRecord = z.object({
  id: z.number().int(),
  hostid: z.number().int(),
  hostname: z.string(),
  serviceid: z
    .number()
    .int()
    .nullable()
    .describe("The muted service's id (status/hosts/get); null for the whole host or a service the host no longer reports"),
  service: z.string().nullable().describe("The muted service's name; null: the whole host"),
  until: z.number().int().describe('Unix seconds'),
  active: z.boolean().describe('False once `until` has passed'),
  reason: z.string(),
  createdby: z.string(),
  createdat: z.number().int()
})
export type AlertMuteRecord = z.infer<typeof alertMuteRecord>

export const alertMuteListAnswer = z.object({ records: z.array(alertMuteRecord) })
export type AlertMuteList = z.infer<typeof alertMuteListAnswer>

export { alertDeliveryStatuses, type AlertDeliveryStatus } from './keys'

/** One notification in the delivery log (admin/alerts/deliveries/list). */
export const alertDelivery = z.object({
  id: z.number().int(),
  uid: z.string().describe("The AlertNotification's id, as the channel received it"),
  channel: z.object({ id: z.number().int(), name: z.string(), type: z.string() }),
  rules: z
    .array(z.object({ id: z.number().int(), name: z.string() }))
    .describe('The rules that matched its alerts (a deleted rule is gone from the list)'),
  events: z.array(z.number().int()).describe('The events told of (ids for reports/events/get)'),
  kinds: z.array(z.enum(['alert', 'recovery', 'reminder'])),
  summary: z.string(),
  link: z.string(),
  alerts: z.number().int(),
  status: z
    .enum(alertDeliveryStatuses)
    .describe('pending: to send or to retry at `nextattemptat`; failed: given up; suppressed: muted after it was queued, not sent'),
  attempts: z.number().int(),
  lasterror: z.string().nullable(),
  log: z.string().nullable().describe("What the channel reported (a server's answer, a program's output)"),
  createdat: z.number().int().describe('Unix seconds'),
  deliveredat: z.number().int().nullable(),
  nextattemptat: z.number().int().nullable()
})
export type AlertDelivery = z.infer<typeof alertDelivery>

export const alertDeliveryList = pageOf(alertDelivery)
export type AlertDeliveryList = z.infer<typeof alertDeliveryList>
