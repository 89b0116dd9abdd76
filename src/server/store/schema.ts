// Table types for kysely. The DDL lives in ./migrations; keep both in step.
import type { Generated } from 'kysely'

export interface Schema {
  host: HostTable
  service: ServiceTable
  service_name: { id: Generated<number>; name: string }
  statistic: StatisticTable
  forecast: ForecastTable
  pulled_agent: PulledAgentTable
  /** The identity provider's user a local user is (migration 027). */
  user_oidc: { user_id: number; issuer: string; subject: string }
  /** The roles a group of the provider's group claim gives (migration 027). */
  oidc_group_role: { group_name: string; role_id: number }
  service_group: { id: Generated<number>; host_id: number; name: string }
  service_group_member: { group_id: number; service_name_id: number }
  event: EventTable
  event_state: EventStateTable
  event_note: { id: Generated<number>; event_id: number; date: number; user_id: number | null; uname: string; message: string }
  state_interval: StateIntervalTable
  /** A row per host (added and removed with it): moves with every change to what the uptime list measures of it (migration 023's triggers). */
  host_uptime: { host_id: number; generation: Generated<number> }
  user: UserTable
  role: RoleTable
  role_row: { id: Generated<number>; role_id: number; permission: number; position: number }
  role_row_host: { row_id: number; host_id: number }
  role_row_group: { row_id: number; group_id: number }
  user_role: { user_id: number; role_id: number }
  host_group: { id: Generated<number>; name: string }
  /** Kept while `assigned` (by an administrator) or `declared` (by the host's agent, migration 017) is 1. */
  host_group_member: { group_id: number; host_id: number; assigned: Generated<number>; declared: Generated<number> }
  session: SessionTable
  api_token: ApiTokenTable
  setting: { key: string; value: string }
  schema_migration: { version: number; name: string; applied_at: number }
  alert_channel: AlertChannelTable
  alert_rule: AlertRuleTable
  alert_rule_channel: { rule_id: number; channel_id: number }
  alert_rule_host: { rule_id: number; host_id: number }
  alert_rule_group: { rule_id: number; group_id: number }
  alert_rule_service_type: { rule_id: number; service_type: number }
  alert_mute: AlertMuteTable
  alert_outbox: AlertOutboxTable
  alert_notification: AlertNotificationTable
  audit_log: AuditLogTable
}

export interface HostTable {
  id: Generated<number>
  agent_id: string
  hostname: string
  keepname: Generated<number>
  description: Generated<string>
  /** 0 Active, 1 Inactive, 2 Ignored */
  status: Generated<number>
  /** Unix seconds when the host became Inactive (stopped or silent); null while reporting. */
  inactive_since: number | null
  ipaddr_in: Generated<string>
  port_in: Generated<number>
  ssl_in: Generated<number>
  unix_socket: string | null
  ipaddr_out: Generated<string>
  port_out: Generated<number>
  ssl_out: Generated<number>
  agent_user: Generated<string>
  /** Encrypted at rest (secret-box.ts). */
  agent_password: Generated<string>
  /** 1 once an administrator set the call-back credentials; the agent's own then stop overwriting them. */
  credentials_pinned: Generated<number>
  /** The agent's latest `<httpd>`; ipaddr_in/port_in/ssl_in follow it unless credentials are pinned. */
  reported_ipaddr: Generated<string>
  reported_port: Generated<number>
  reported_ssl: Generated<number>
  /** The address the host's messages are known to come from, and the latest other one ('' when none). */
  source_ipaddr: Generated<string>
  last_source_ipaddr: Generated<string>
  /** SHA-256 fingerprint of the agent's TLS certificate, pinned on first use ('' = none yet), and the latest other one presented. */
  agent_cert_sha256: Generated<string>
  agent_cert_seen_sha256: Generated<string>
  /** null = the server default (3) */
  skew: number | null
  poll: Generated<number>
  start_delay: Generated<number>
  agent_version: Generated<string>
  incarnation: Generated<number>
  agent_uptime: Generated<number>
  control_file: Generated<string>
  platform_name: Generated<string>
  platform_release: Generated<string>
  platform_version: Generated<string>
  platform_machine: Generated<string>
  cpu_count: Generated<number>
  memory_kb: Generated<number>
  swap_kb: Generated<number>
  /** Unix seconds of the last message received (server clock). */
  last_modified: Generated<number>
  /** Newest service collection time applied, in µs: older snapshots arriving late are not applied. */
  snapshot_usec: Generated<number>
  heartbeat: Generated<number>
  /** Unix ms after which the watchdog declares the heartbeat dead; null when not watched. */
  heartbeat_deadline_ms: number | null
  services_total: Generated<number>
  services_failed: Generated<number>
  services_changed: Generated<number>
  services_unmonitored: Generated<number>
  led: Generated<number>
  status_text: Generated<string>
  cpu: number | null
  mem: number | null
  events_count: Generated<number>
  created_at: number
}

export interface ServiceTable {
  id: Generated<number>
  host_id: number
  name_id: number
  name: string
  type: number
  position: number
  collected_usec: number
  status: number
  status_hint: number
  monitor: number
  monitor_mode: number
  on_reboot: number
  pending_action: number
  every: string | null
  led: number
  status_text: string
  /** JSON of LatestStatistic tuples (store/latest-statistics.ts) */
  statistics: string
  events_count: Generated<number>
}

/** The registry of a service's statistics; their latest values are in `service.statistics`. */
/** A Monit agent whose status the server reads from its httpd (migration 026). */
export interface PulledAgentTable {
  id: Generated<number>
  address: string
  port: number
  /** 1: HTTPS */
  ssl: number
  username: string
  /** Sealed at rest (secret-box.ts). */
  password: string
  /** The HTTPS agent's certificate, pinned at its first answer ('' = none yet). */
  certificate_sha256: Generated<string>
  poll_sec: number
  /** The agent's id, from its first answer. */
  agent_id: string | null
  created_at: number
  /** Unix seconds of the last poll tried, and of the last one answered. */
  polled_at: number | null
  answered_at: number | null
  /** Why the last poll failed; null when it was answered. */
  error: string | null
}

/** A resource series' forecast, as the forecast job last computed it (migration 025). */
export interface ForecastTable {
  statistic_id: number
  host_id: number
  service_id: number
  resource: string
  percent: number
  slope: number
  confidence: number
  window_sec: number
  full_at: number | null
  computed_at: number
}

export interface StatisticTable {
  id: Generated<number>
  service_id: number
  type: number
  descriptor: string
}

export interface EventTable {
  id: Generated<number>
  host_id: number
  service_name_id: number
  service_name: string
  service_type: number
  /** Event class bit (eventClasses) */
  class: number
  /** 0 succeeded, 1 failed, 2 changed, 4 changed-not */
  state: number
  action: number
  message: string
  /** collected_sec * 1e6 + collected_usec: the agent's time, part of the de-duplication key */
  collected_usec: number
  /** Unix seconds (collected_sec) */
  date: number
  /** 1 for a failed event until its service recovers from that class */
  active: Generated<number>
  dismissed: Generated<number>
  has_note: Generated<number>
}

/** The last state seen per host × service × event class: repeats after a reload are not new transitions. */
export interface EventStateTable {
  host_id: number
  service_name: string
  class: number
  state: number
  collected_usec: number
}

/** Down time: a service failing (service_name_id set) or a host silent (service_name_id null). */
export interface StateIntervalTable {
  id: Generated<number>
  host_id: number
  service_name_id: number | null
  /** Unix seconds */
  start: number
  /** Unix seconds; null while open */
  end: number | null
}

export interface UserTable {
  id: Generated<number>
  uname: string
  /** Scheme-tagged (auth/password-hash.ts): scrypt, or a legacy digest until the user's next login. */
  password_hash: string
  /** Random per password version: what admin/users/get returns and update takes back as "unchanged". */
  password_token: string
  /** 1: a weak password (auth/weak-passwords.ts) or one still stored with a legacy digest. */
  password_unsafe: number
  fullname: Generated<string>
  title: Generated<string>
  email: Generated<string>
  phone: Generated<string>
  mobile: Generated<string>
  imname: Generated<string>
  imtype: Generated<string>
  image: Generated<string>
  /** IANA time zone of the notifications e-mailed to the user; '' the server's (migration 020) */
  timezone: Generated<string>
  created_at: number
}

export interface RoleTable {
  id: Generated<number>
  name: string
  description: Generated<string>
  admin: number
  active: number
  buildin: Generated<number>
}

export interface SessionTable {
  id: string
  user_id: number | null
  csrf_token: string
  csrf_protection: number
  /** JSON object of session attributes (session/put) */
  attributes: string
  saved_url: string | null
  created_at: number
  last_access: number
  /** The user this session deleted while logged in as it (compat CLI-7); user_id is then null. */
  deleted_user_id: Generated<number | null>
  deleted_uname: Generated<string | null>
}

/** A personal API token (auth/api-tokens.ts): its SHA-256 only, never the token itself. Times in Unix seconds. */
export interface ApiTokenTable {
  id: Generated<number>
  user_id: number
  name: string
  /** SHA-256 of the whole token, hex */
  token_hash: string
  /** The token's first characters, shown in lists to tell tokens apart */
  prefix: string
  scope: 'read' | 'full'
  created_at: number
  /** null: never expires */
  expires_at: number | null
  /** Written at most once a minute per token */
  last_used_at: number | null
}

export interface AlertChannelTable {
  id: Generated<number>
  name: string
  type: string
  enabled: Generated<number>
  /** JSON of the type's settings, secret fields sealed */
  settings: string
  subject_template: string | null
  body_template: string | null
  created_at: number
}

export interface AlertRuleTable {
  id: Generated<number>
  name: string
  enabled: Generated<number>
  /** Glob on the service name; '' = every service */
  service_pattern: Generated<string>
  /** Event class bits; 0 = every class */
  event_types: Generated<number>
  /** 1 failed, 2 changed, 4 succeeded */
  states: Generated<number>
  heartbeat: Generated<number>
  group_wait_sec: Generated<number>
  reminder_min: Generated<number>
  recovery: Generated<number>
  created_at: number
}

export interface AlertMuteTable {
  id: Generated<number>
  host_id: number
  /** null: the whole host */
  service_name_id: number | null
  /** Unix seconds */
  until: number
  reason: Generated<string>
  created_by: string
  created_at: number
}

/** Written by the collector path (kinds alert, recovery) and the delivery job (reminder). */
export interface AlertOutboxTable {
  id: Generated<number>
  channel_id: number
  rule_id: number | null
  event_id: number | null
  kind: 'alert' | 'recovery' | 'reminder'
  /** AlertItem JSON */
  item: string
  /** Unix seconds (server clock) */
  created_at: number
  /** Unix seconds: created_at + the rule's group wait */
  due_at: number
  notification_id: number | null
}

/** One delivery to one channel: outbox rows grouped (alert-deliveries.ts, the delivery job's only). */
export interface AlertNotificationTable {
  id: Generated<number>
  /** Stable across retries and restarts (AlertNotification.id) */
  uid: string
  channel_id: number
  /** Unix seconds (server clock) */
  created_at: number
  /** suppressed: every alert of it muted after it was queued, not sent */
  status: 'pending' | 'delivered' | 'failed' | 'suppressed'
  attempts: Generated<number>
  next_attempt_at: number | null
  last_error: string | null
  delivered_at: number | null
  /** The AlertNotification's summary and link, and how many alerts it lists (its rows hold them) */
  summary: string
  link: string
  alert_count: number
  log: string | null
}

/** Who changed what and when (migration 015); `at` in Unix seconds. */
export interface AuditLogTable {
  id: Generated<number>
  at: number
  user_id: number | null
  uname: string
  address: string
  action: string
  target: string
  detail: string
}
