// The contract of reports/analytics/get, shared by the server and the console.
import { z } from 'zod'
import { rangeId } from './ranges'

/** [time (bucket start, unix seconds), average, minimum, maximum] */
export const point = z.tuple([z.number().int(), z.number(), z.number(), z.number()])
export type Point = z.infer<typeof point>

export const analyticsSeries = z.object({
  serviceid: z.number().int(),
  service: z.string(),
  type: z.number().int(),
  typename: z.string(),
  descriptor: z.string(),
  unit: z.string(),
  points: z.array(point)
})
export type AnalyticsSeries = z.infer<typeof analyticsSeries>

export const analyticsReport = z.object({
  hostid: z.number().int(),
  range: rangeId,
  datefrom: z.number().int().describe('The span covered, unix seconds'),
  dateto: z.number().int(),
  resolution: z.number().int().describe("Width of each point's bucket in seconds"),
  level: z
    .enum(['raw', 'minute', 'hour', 'day'])
    .describe('The stored level the points were computed from (newer parts come from finer levels)'),
  series: z.array(analyticsSeries)
})
export type AnalyticsReport = z.infer<typeof analyticsReport>
