// The last 24 hours of events as stacked bars (Failed at the bottom, then Changed, then Succeeded), one
// bar per 10-minute sample, the newest one (still filling) included. uPlot has no stacking of its own:
// each bar is drawn at the running total, tallest first, so the lower parts paint over it; the legend
// shows each label's own count.
import { useMemo } from 'react'
import uPlot from 'uplot'
import type { EventsSummary, SummaryLabel } from '../../api/events-summary'
import { useChartTheme } from './chart-theme'
import { UplotChart } from './uplot-chart'

const STACK: readonly SummaryLabel[] = ['Failed', 'Changed', 'Succeeded']
/** Event counts are whole numbers: no 0.2 ticks. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6]
const COLOURS: Record<SummaryLabel, string> = { Failed: '#fa5252', Changed: '#fd7e14', Succeeded: '#40c057' }

export function EventsChart({ summary, height = 220 }: { summary: EventsSummary; height?: number }) {
  const theme = useChartTheme()
  const { data, counts } = useMemo(() => stacked(summary), [summary])
  const totals = useMemo(() => new Map(STACK.map((l) => [l, counts.get(l)!.reduce((a, b) => a + b, 0)])), [counts])
  const options = useMemo((): Omit<uPlot.Options, 'width' | 'height'> => {
    const bars = uPlot.paths.bars!({ size: [0.85, 40], align: 1 })
    // Drawn tallest (all three) first, so the series are listed in reverse stacking order.
    const drawn = [...STACK].reverse()
    return {
      series: [
        {},
        ...drawn.map((label) => ({
          label,
          fill: COLOURS[label],
          stroke: COLOURS[label],
          width: 0,
          paths: bars,
          points: { show: false },
          // Under the cursor: that sample's count; elsewhere: the whole day's.
          value: (_u: uPlot, _v: number | null, _s: number, i: number | null) =>
            String(i === null ? totals.get(label) : counts.get(label)![i])
        }))
      ],
      axes: [{ ...theme.axis }, { ...theme.axis, size: 48, incrs: COUNT_STEPS }],
      // To now, not to the newest sample's start: each bar stands right of its start, so the current
      // (partial) 10 minutes would otherwise fall outside the plot.
      scales: { x: { time: true, range: [summary.datefrom, summary.dateto] }, y: { range: (_u, _min, max) => [0, Math.max(max, 1)] } },
      cursor: { points: { show: false } },
      legend: { show: true }
    }
  }, [theme, counts, totals, summary.datefrom, summary.dateto])
  const total = STACK.map((l) => `${totals.get(l)} ${l.toLowerCase()}`).join(', ')
  return <UplotChart options={options} data={data} height={height} label={`Events in the last 24 hours: ${total}`} />
}

/** x: sample starts; then the running totals in drawing order (all, failed + changed, failed). */
function stacked(summary: EventsSummary): { data: uPlot.AlignedData; counts: Map<SummaryLabel, number[]> } {
  const counts = new Map<SummaryLabel, number[]>(
    STACK.map((label) => [label, summary.events.find((e) => e.label === label)?.data.map(([, n]) => n) ?? []])
  )
  const x = (summary.events[0]?.data ?? []).map(([t]) => t)
  const running = x.map(() => 0)
  const levels = STACK.map((label) => {
    const own = counts.get(label)!
    return running.map((sum, i) => (running[i] = sum + (own[i] ?? 0)))
  })
  return { data: [x, ...levels.reverse()], counts }
}
