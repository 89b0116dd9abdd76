// The report's range as a strip of segments: the server running, or not running (its own downtime,
// which the report counts as unknown, not as the hosts' downtime: issue 12). Only the elapsed part of
// the range is drawn; the rest of a range reaching past now is left out, as the report measures it.
import type { ServerDowntime, UptimeReport } from '../../api/uptime'

export interface Segment {
  running: boolean
  from: number
  to: number
  /** Share of the elapsed range, 0–100 */
  percent: number
}

export function serverSegments(report: Pick<UptimeReport, 'datefrom' | 'dateto' | 'serverdown'>, nowSec: number): Segment[] {
  const end = Math.min(report.dateto, Math.max(report.datefrom, nowSec))
  const total = end - report.datefrom
  if (total <= 0) return []
  const segments: Segment[] = []
  const add = (running: boolean, from: number, to: number) => {
    if (to > from) segments.push({ running, from, to, percent: (100 * (to - from)) / total })
  }
  let at = report.datefrom
  for (const down of [...report.serverdown].sort(byStart)) {
    const from = Math.max(at, down.from)
    const to = Math.min(end, down.to)
    if (to <= from) continue
    add(true, at, from)
    add(false, from, to)
    at = to
  }
  add(true, at, end)
  return segments
}

function byStart(a: ServerDowntime, b: ServerDowntime): number {
  return a.from - b.from
}
