// The JSON shapes of our reports/uptime/{list,get} answers, shared by the server and the console.
import type { Range } from '../ranges'

/** A host (list) or a service (get) of an uptime report. */
export interface UptimeItem {
  id: number
  /** 0 when the host is not active or the service not monitored */
  active: 0 | 1
  name: string
  /** Percent of the known time, two decimals */
  uptime: number
  /** "1h 5m" */
  downtime: string
  events: number
  /**
   * Ours, not M/Monit's: "1h 5m" of the range whose state is unknown, counted neither as up nor as down —
   * the server was not running, or the host had not reported yet.
   */
  unknown: string
}

/** A span of the range in which the server itself was not running, in unix seconds: [from, to). */
export interface ServerDowntime {
  from: number
  to: number
}

export interface UptimeReport {
  range: Range
  datefrom: number
  dateto: number
  uptime: number
  downtime: string
  items: UptimeItem[]
  /** Ours: "5m", the minutes of the range the server itself was not running (unknown to every item). */
  serverdowntime: string
  /** Ours: when the server was not running, cut to the elapsed part of the range, oldest first. */
  serverdown: ServerDowntime[]
}
