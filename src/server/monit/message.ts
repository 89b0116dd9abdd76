// The typed form of one Monit collector message (agent protocol §4). The parser produces it; ingest
// and the agent client (agent/client.ts) consume it. Statistics are already mapped to the spec's type
// codes (src/shared/codes.ts `Stat`).

export interface MonitMessage {
  /** `<monit id incarnation version>` */
  agent: { id: string; incarnation: number; version: string }
  server: ServerInfo
  platform: PlatformInfo
  /** 5.34+ `<hostgroups>`, distinct, at most MAX_HOST_GROUPS; empty when absent. */
  hostGroups: string[]
  /** How many more names `<hostgroups>` held past MAX_HOST_GROUPS, left out. */
  hostGroupsLeftOut: number
  services: ServiceSnapshot[]
  serviceGroups: ServiceGroup[]
  /** Present on event messages only. */
  event?: MonitEvent
}

export interface ServerInfo {
  uptime: number
  poll: number
  startDelay: number
  localHostname: string
  controlFile: string
  /** TCP call-back address; absent when the agent has no httpd or only a unix socket. */
  httpd?: { address: string; port: number; ssl: boolean }
  unixSocket?: string
  credentials?: { username: string; password: string }
}

export interface PlatformInfo {
  name: string
  release: string
  version: string
  machine: string
  cpu: number
  /** kB */
  memory: number
  /** kB */
  swap: number
}

export interface ServiceSnapshot {
  name: string
  /** Monit service type 0–8 */
  type: number
  collectedSec: number
  collectedUsec: number
  /** Bitmask of failing event classes; 0 = OK */
  status: number
  statusHint: number
  /** Bitmask: 0 off, 1 on, 2 initializing, 4 waiting */
  monitor: number
  monitorMode: number
  onReboot: number
  pendingAction: number
  /** Human text of the `<every>` rule, e.g. "every 2 cycles" or "every '0 2 * * *'"; absent without one. */
  every?: string
  statistics: Statistic[]
}

export interface Statistic {
  /** Code from `Stat` */
  type: number
  /** Distinguishes statistics of one type within a service (e.g. "avg05", "127.0.0.1:2812 [DEFAULT/TCP]"); '' when there is one. */
  descriptor: string
  value: number
  /** Textual value for text statistics (program output, filesystem type, flags, checksum, mode as octal). */
  text?: string
}

export interface ServiceGroup {
  name: string
  services: string[]
}

export interface MonitEvent {
  collectedSec: number
  collectedUsec: number
  /** Service name; literally "Monit" for agent start/stop/reload. */
  service: string
  /** Service type 0–8 (not the event class). */
  serviceType: number
  /** Event class (bit value, `eventClasses`) */
  id: number
  /** 0 succeeded, 1 failed, 2 changed, 4 changed-not */
  state: number
  /** Monit action 0–7 (`actionLabels`) */
  action: number
  message: string
}
