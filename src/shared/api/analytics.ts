// The JSON shape of our reports/analytics/get answer, shared by the server and the console.
import type { Range } from '../ranges'

/** [time (bucket start, unix seconds), average, minimum, maximum] */
export type Point = [number, number, number, number]

export interface AnalyticsSeries {
  serviceid: number
  service: string
  type: number
  typename: string
  descriptor: string
  unit: string
  points: Point[]
}

export interface AnalyticsReport {
  hostid: number
  range: Range
  /** The span covered, unix seconds */
  datefrom: number
  dateto: number
  /** Width of each point's bucket in seconds */
  resolution: number
  /** The stored level the points were computed from (newer parts come from finer levels) */
  level: 'raw' | 'minute' | 'hour' | 'day'
  series: AnalyticsSeries[]
}
