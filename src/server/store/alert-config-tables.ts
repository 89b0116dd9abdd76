// Table types of the alerting configuration (migration 006), for `db.withTables<AlertConfigTables>()`.
import type { Generated } from 'kysely'

export interface AlertChannelTable {
  id: Generated<number>
  name: string
  type: string
  enabled: number
  /** JSON of the type's settings, its secret fields sealed (alerting/channel-settings.ts) */
  settings: string
  subject_template: string | null
  body_template: string | null
  /** Unix seconds */
  created_at: number
}

export interface AlertRuleTable {
  id: Generated<number>
  name: string
  enabled: number
  service_pattern: string
  event_types: number
  /** Bits: 1 failed, 2 changed, 4 succeeded */
  states: number
  heartbeat: number
  group_wait_sec: number
  reminder_min: number
  recovery: number
  created_at: number
}

export interface AlertMuteTable {
  id: Generated<number>
  host_id: number
  service_name_id: number | null
  /** Unix seconds */
  until: number
  reason: string
  created_by: string
  created_at: number
}

// A type, not an interface: withTables wants an index signature.
export type AlertConfigTables = {
  alert_channel: AlertChannelTable
  alert_rule: AlertRuleTable
  alert_rule_channel: { rule_id: number; channel_id: number }
  alert_rule_host: { rule_id: number; host_id: number }
  alert_rule_group: { rule_id: number; group_id: number }
  alert_rule_service_type: { rule_id: number; service_type: number }
  alert_mute: AlertMuteTable
}
