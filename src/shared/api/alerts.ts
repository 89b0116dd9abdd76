// Alerting (issue 13, our extension of the API): the notification every channel sends, as the webhook
// channel posts it verbatim. Shared by server, console and tests.

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
export interface AlertChannelRecord {
  id: number
  name: string
  /** email, webhook, slack, … , desktop */
  type: string
  enabled: boolean
  /** The channel's templates; null: the default one */
  subject: string | null
  body: string | null
  /** The type's settings, named as create's arguments, without the secrets */
  settings: Record<string, unknown>
  /** Per secret setting (write-only): whether it is set */
  secrets: Record<string, boolean>
  /** Unix seconds */
  createdat: number
}

/** A rule as admin/alerts/rules/list and get answer it: the arguments of create, as stored. */
export interface AlertRuleRecord {
  id: number
  name: string
  enabled: boolean
  channelid: number[]
  /** No host and no group: every host */
  hostid: number[]
  hostgroupid: number[]
  /** '' matches every service */
  servicepattern: string
  /** Service type codes; none: every type */
  servicetype: number[]
  /** Event states that match: 0 succeeded, 1 failed, 2 changed */
  state: number[]
  /** Event type bits; 0: every type */
  eventtype: number
  heartbeat: boolean
  /** Seconds */
  groupwait: number
  /** Minutes; 0: no reminders */
  reminder: number
  recovery: boolean
  createdat: number
}

/** A mute as admin/alerts/mutes/list answers it. */
export interface AlertMuteRecord {
  id: number
  hostid: number
  hostname: string
  /** The muted service's id (status/hosts/get); null for the whole host or a service the host no longer reports */
  serviceid: number | null
  /** The muted service's name; null: the whole host */
  service: string | null
  /** Unix seconds */
  until: number
  /** False once `until` has passed */
  active: boolean
  reason: string
  createdby: string
  createdat: number
}

export type AlertDeliveryStatus = 'pending' | 'delivered' | 'failed'

/** One notification in the delivery log (admin/alerts/deliveries/list). */
export interface AlertDelivery {
  id: number
  /** The AlertNotification's id, as the channel received it */
  uid: string
  channel: { id: number; name: string; type: string }
  /** The rules that matched its alerts (a deleted rule is gone from the list) */
  rules: { id: number; name: string }[]
  /** The events told of (ids for reports/events/get), and of what kind each row was */
  events: number[]
  kinds: ('alert' | 'recovery' | 'reminder')[]
  summary: string
  link: string
  alerts: number
  /** pending: to send or to retry at `nextattemptat`; failed: given up */
  status: AlertDeliveryStatus
  attempts: number
  lasterror: string | null
  /** What the channel reported (a server's answer, a program's output) */
  log: string | null
  /** Unix seconds */
  createdat: number
  deliveredat: number | null
  nextattemptat: number | null
}

export interface AlertDeliveryList {
  records: AlertDelivery[]
  recordsReturned: number
  pageSize: number
  totalRecords: number
  startIndex: number
}
