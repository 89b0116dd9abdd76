// The contracts of reports/forecasts/{list,host} (ours: M/Monit has no forecasts), shared by the server and
// the console: when a filesystem's space or inodes, memory or swap reaches 100 % at its current trend.
import { z } from 'zod'

export const forecastResource = z.enum(['space', 'inodes', 'memory', 'swap'])
export type ForecastResource = z.infer<typeof forecastResource>

/** Trend windows: the last 24 hours and the last 7 days of history. */
export const FORECAST_WINDOWS_SEC = [86_400, 604_800] as const

export const resourceForecast = z.object({
  hostid: z.number().int(),
  host: z.string(),
  serviceid: z.number().int(),
  service: z.string(),
  resource: forecastResource,
  percent: z.number().describe('The fitted level now, percent, one decimal'),
  slope: z.number().describe('Percent per day at the current trend, two decimals (negative: falling)'),
  confidence: z.number().describe('0–1: below 0.5 the trend is too noisy to tell, and fullat is null'),
  window: z.number().int().describe('Seconds of history the trend is fitted over: 86400 or 604800'),
  fullat: z
    .number()
    .int()
    .nullable()
    .describe('When it reaches 100 % at this trend, unix seconds; null: not within a year, or no clear trend'),
  computedat: z.number().int().describe('When the forecast was computed, unix seconds')
})
export type ResourceForecast = z.infer<typeof resourceForecast>

/** reports/forecasts/list: the stored forecasts that reach 100 % within the hours asked, soonest first. */
export const forecastList = z.object({
  records: z.array(resourceForecast),
  totalRecords: z.number().int().describe('How many reach 100 % within the hours asked, on the hosts the caller may view')
})
export type ForecastList = z.infer<typeof forecastList>

/** reports/forecasts/host: every resource of one host, computed now from its history (fullat null when none). */
export const hostForecasts = z.object({ hostid: z.number().int(), records: z.array(resourceForecast) })
export type HostForecasts = z.infer<typeof hostForecasts>
