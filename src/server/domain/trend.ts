// A host's last hours as a row of cells (the hosts list's trend bar, like Uptime Kuma's heartbeat bar):
// each cell says whether, during it, the host was silent (its own interval, no service) or a service
// was down (a failing interval), from the state intervals that overlap the window.

export const TrendCell = { Up: 0, ServiceDown: 1, Silent: 2, Unknown: 3 } as const

export interface TrendInterval {
  /** null: the host itself (silent), otherwise a service */
  service_name_id: number | null
  start: number
  /** null while still open */
  end: number | null
}

/**
 * `cells` cells of `cellSeconds` ending at `now`, oldest first; silence outranks a service down. Cells
 * wholly before the host's first report (`firstSeen`) are unknown, not up.
 */
export function trendCells(intervals: readonly TrendInterval[], now: number, cells: number, cellSeconds: number, firstSeen = 0): number[] {
  const from = now - cells * cellSeconds
  // The cell holding `now` is never unknown: the host is known by now.
  const unknown = (c: number) => c < cells - 1 && from + (c + 1) * cellSeconds <= firstSeen
  const out: number[] = Array.from({ length: cells }, (_, c) => (unknown(c) ? TrendCell.Unknown : TrendCell.Up))
  for (const i of intervals) {
    // An open interval is still down now: it reaches into the cell holding `now`.
    const start = Math.max(i.start, from)
    const end = i.end === null ? Math.max(now, i.start) + 1 : Math.min(i.end, now)
    if (end <= start) continue
    const first = Math.min(cells - 1, Math.floor((start - from) / cellSeconds))
    const last = Math.min(cells - 1, Math.ceil((end - from) / cellSeconds) - 1)
    const state = i.service_name_id === null ? TrendCell.Silent : TrendCell.ServiceDown
    for (let c = first; c <= last; c++) out[c] = out[c] === TrendCell.Unknown ? state : Math.max(out[c], state)
  }
  return out
}
