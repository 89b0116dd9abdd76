// The JSON shapes of our reports/uptime/{list,get} answers, shared by the server and the console.
import type { Range } from '../ranges'

/** A host (list) or a service (get) of an uptime report. */
export interface UptimeItem {
  id: number
  /** 0 when the host is not active or the service not monitored */
  active: 0 | 1
  name: string
  /** Percent, two decimals */
  uptime: number
  /** "1h 5m" */
  downtime: string
  events: number
}

export interface UptimeReport {
  range: Range
  datefrom: number
  dateto: number
  uptime: number
  downtime: string
  items: UptimeItem[]
}
