// Forecasts of resource series from their history (issue 30 §3): each series fitted over the last 24 hours
// (10-minute buckets) and the last 7 days (hourly buckets), the more urgent of the confident forecasts
// kept, or else the longer window's trend, said to be unclear. Used live for one host's page, and by the
// forecast job, which goes through the fleet in slices of statistic ids and stores what it finds.
import { FORECAST_WINDOWS_SEC, type ResourceForecast } from '../../shared/api/forecasts'
import { fitTrend, fullAt, type Trend } from '../domain/forecast'
import { FORECAST_TYPES, type ForecastRow, type ResourceSeries } from '../store/forecasts'
import type { Store } from '../store/store'
import { recordForecastEvents } from '../events/forecast-events'
import type { HistoryStore } from '../store/history'
import { chooseResolution } from './resolution'
import { readSeries } from './series-reader'

const DAY = 86_400
/** Bucket width per window: about 150 points each. */
const widthOf = (windowSec: number) => (windowSec <= DAY ? 600 : 3600)
/**
 * Series per slice of the job. On SQLite a slice runs on the event loop, which serves HTTP: 50 series are
 * about 10 ms of CPU (bench/forecasts.ts: 0.19 ms a series from raw history), as a rollup slice.
 */
export const FORECAST_SLICE_SERIES = 50

interface Fitted {
  trend: Trend
  windowSec: number
  fullAt: number | undefined
}

/** The forecast rows of `series` (all of one host or several) at `now`; a series without a trend has none. */
export function forecastSeries(history: HistoryStore, series: readonly ResourceSeries[], now: number): ForecastRow[] {
  const byHost = new Map<number, ResourceSeries[]>()
  for (const s of series) {
    const ofHost = byHost.get(s.host_id)
    if (ofHost) ofHost.push(s)
    else byHost.set(s.host_id, [s])
  }
  const rows: ForecastRow[] = []
  const retention = history.settings.retention()
  for (const [hostId, ofHost] of byHost) {
    const fits = new Map<number, Fitted[]>()
    for (const windowSec of FORECAST_WINDOWS_SEC) {
      const width = widthOf(windowSec)
      const { level } = chooseResolution(now - windowSec, now, now, retention)
      const buckets = readSeries(
        history,
        hostId,
        ofHost.map((s) => s.id),
        level,
        now - windowSec,
        now,
        width
      )
      for (const s of ofHost) {
        const points = (buckets.get(s.id) ?? []).map((b) => ({ time: b.time + width / 2, value: b.sum / b.count }))
        const trend = fitTrend(points, now, windowSec)
        if (trend) fits.set(s.id, [...(fits.get(s.id) ?? []), { trend, windowSec, fullAt: fullAt(trend, now) }])
      }
    }
    for (const s of ofHost) {
      const chosen = mostTelling(fits.get(s.id) ?? [])
      if (chosen) rows.push(row(s, chosen, now))
    }
  }
  return rows
}

/** The soonest confident forecast, else the longest window's trend. */
function mostTelling(fits: readonly Fitted[]): Fitted | undefined {
  const forecasts = fits.filter((f) => f.fullAt !== undefined).sort((a, b) => a.fullAt! - b.fullAt!)
  return forecasts[0] ?? [...fits].sort((a, b) => b.windowSec - a.windowSec)[0]
}

function row(s: ResourceSeries, f: Fitted, now: number): ForecastRow {
  return {
    statistic_id: s.id,
    host_id: s.host_id,
    service_id: s.service_id,
    resource: FORECAST_TYPES.get(s.type)!,
    percent: round(f.trend.level, 1),
    slope: round(f.trend.slope * DAY, 2),
    confidence: round(f.trend.confidence, 2),
    window_sec: f.windowSec,
    full_at: f.fullAt ?? null,
    computed_at: now
  }
}

/** As the API gives a forecast. */
export function forecastItem(r: ForecastRow, names: { hostname: string; service: string }): ResourceForecast {
  return {
    hostid: r.host_id,
    host: names.hostname,
    serviceid: r.service_id,
    service: names.service,
    resource: r.resource as ResourceForecast['resource'],
    percent: r.percent,
    slope: r.slope,
    confidence: r.confidence,
    window: r.window_sec,
    fullat: r.full_at,
    computedat: r.computed_at
  }
}

/**
 * One slice of the job: the series after statistic `afterId`, forecast and stored (those without a trend
 * forgotten), with their services' Forecast events. Returns the last id taken, and whether the fleet is done (the next pass starts again at 0).
 */
export function forecastSlice(
  store: Store,
  now: number,
  afterId: number,
  limit = FORECAST_SLICE_SERIES
): { lastId: number; done: boolean } {
  const series = store.forecasts.seriesAfter(afterId, limit)
  const rows = forecastSeries(store.history, series, now)
  const kept = new Set(rows.map((r) => r.statistic_id))
  store.transaction(() => {
    store.forecasts.save(rows)
    store.forecasts.remove(series.filter((s) => !kept.has(s.id)).map((s) => s.id))
    recordForecastEvents(store, series, now)
  })
  return { lastId: series.at(-1)?.id ?? afterId, done: series.length < limit }
}

function round(value: number, digits: number): number {
  return Number(value.toFixed(digits))
}
