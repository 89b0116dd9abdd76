// Charts of one service's statistics over the range in the URL (reports/analytics/get): one chart per
// kind of figure, titled and labelled in words (components/charts/statistic-charts.ts), the average as
// a line; a lone series also shows its min–max band. The axis starts where the data does, so a host that
// reported for minutes shows them across the chart, and the range's caption says so ("Last 24 hours —
// data since 11:54"); a chart of many figures (CPU) shows the main ones, the rest a legend click away.
import { Alert, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type uPlot from 'uplot'
import { Stat } from '../../../shared/codes'
import type { Range } from '../../../shared/ranges'
import { DEFAULT_CHART_RANGE, serviceAnalyticsQuery, type AnalyticsReport, type AnalyticsSeries } from '../../api/analytics'
import { ApiError } from '../../api/client'
import type { ServiceEntry } from '../../api/status'
import type { UptimeSearch } from '../../api/uptime'
import { useChartTheme } from '../../components/charts/chart-theme'
import { chartGroups, lineName, spanCaption } from '../../components/charts/statistic-charts'
import { UplotChart } from '../../components/charts/uplot-chart'
import { ErrorNote } from '../../components/error-note'
import { RangePicker } from '../reports/range-picker'
import { rangeLabels } from '../reports/uptime-search'
import { axisSteps, formatAxis, formatStatistic } from './statistics'

const PALETTE = ['#12b886', '#228be6', '#fab005', '#be4bdb', '#fa5252', '#15aabf', '#82c91e', '#fd7e14']
/** Shown at first in a chart of more than three series; the others wait for a click on their legend entry. */
const MAIN_FIGURES = new Set<number>([Stat.CpuUser, Stat.CpuSystem, Stat.CpuWait, Stat.ProcessCpuPercentTotal, Stat.ProcessCpuPercent])
const MANY = 3

interface Props {
  hostId: number
  service: ServiceEntry
  range: UptimeSearch
  onRange: (next: UptimeSearch) => void
}

export function ServiceCharts({ hostId, service, range, onRange }: Props) {
  const history = useQuery(serviceAnalyticsQuery(hostId, service.id, range))
  const groups = useMemo(() => chartGroups(history.data?.series ?? []), [history.data])
  const rangeName = rangeLabels[(range.range ?? DEFAULT_CHART_RANGE) as Range]
  return (
    <Stack gap="sm" data-testid="service-charts">
      <Group justify="space-between" wrap="wrap" align="flex-end">
        <Title order={3} size="h4">
          Statistics of {service.name}
        </Title>
        <RangePicker value={range} onChange={onRange} fallback={DEFAULT_CHART_RANGE} />
      </Group>
      {history.isSuccess && groups.length > 0 && (
        <Text size="sm" c="dimmed" data-testid="chart-span">
          {spanCaption(rangeName, history.data, groups)}
        </Text>
      )}
      {history.isPending && <Skeleton height={200} />}
      {history.isError &&
        (isMissingEndpoint(history.error) ? (
          <Alert color="gray" title="No statistics history yet" data-testid="no-history">
            This server does not keep statistics history yet (reports/analytics/get is not available), so there is nothing to chart. The
            latest values are in the table above.
          </Alert>
        ) : (
          <ErrorNote error={history.error} title="The statistics history could not be loaded" />
        ))}
      {history.isSuccess && groups.length === 0 && (
        <Text c="dimmed" data-testid="no-history">
          No statistics recorded for {service.name} in this range ({rangeName.toLowerCase()}).
        </Text>
      )}
      {history.isSuccess && groups.length > 0 && (
        <SimpleGrid cols={{ base: 1, lg: groups.length > 1 ? 2 : 1 }}>
          {groups.map((group) => (
            <StatisticChart key={group.title} title={group.title} series={group.series} span={history.data} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  )
}

/** The endpoint itself is missing (an older server), as opposed to a 404 about the host or service. */
function isMissingEndpoint(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.message.startsWith('no such resource')
}

/** The x axis runs from the first point (or the range's start, when the data covers it all) to the range's end. */
function StatisticChart({ title, series, span }: { title: string; series: AnalyticsSeries[]; span: AnalyticsReport }) {
  const theme = useChartTheme()
  const withBand = series.length === 1
  const data = useMemo(() => aligned(series, withBand), [series, withBand])
  const type = series[0].type
  const options = useMemo((): Omit<uPlot.Options, 'width' | 'height'> => {
    const format = (v: number | null) => (v === null ? '–' : formatStatistic(type, v))
    // Under the cursor: that point; elsewhere: the latest value.
    const value = (u: uPlot, v: number | null, seriesIndex: number, i: number | null) =>
      format(i === null ? latest(u.data[seriesIndex] as (number | null)[]) : v)
    const many = series.length > MANY && series.some((s) => MAIN_FIGURES.has(s.type))
    const lines: uPlot.Series[] = series.map((s, i) => ({
      label: lineName(s.type, s.descriptor),
      stroke: PALETTE[i % PALETTE.length],
      width: 1.5,
      spanGaps: false,
      value,
      show: !many || MAIN_FIGURES.has(s.type)
    }))
    const band: uPlot.Series[] = withBand
      ? [
          { label: 'min', stroke: 'transparent', value },
          { label: 'max', stroke: 'transparent', value }
        ]
      : []
    return {
      series: [{}, ...lines, ...band],
      bands: withBand ? [{ series: [3, 2], fill: theme.dark ? 'rgba(18,184,134,0.18)' : 'rgba(18,184,134,0.15)' }] : [],
      scales: { x: { time: true, range: [Math.max(span.datefrom, data[0][0] ?? span.datefrom), span.dateto] } },
      axes: [{ ...theme.axis }, { ...theme.axis, size: 80, incrs: axisSteps(type), values: (_u, splits) => formatAxis(type, splits) }],
      legend: { show: true },
      cursor: { points: { size: 6 } }
    }
  }, [series, withBand, type, theme, span.datefrom, span.dateto, data])
  return (
    <Stack gap={4} data-chart-title={title}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      <UplotChart
        options={options}
        data={data}
        height={200}
        label={`${title}: ${series[0].points.length} points, one per ${span.resolution} seconds`}
      />
      {series.length > MANY && (
        <Text size="xs" c="dimmed">
          Click a name in the legend to show or hide its line.
        </Text>
      )}
    </Stack>
  )
}

function latest(values: readonly (number | null)[]): number | null {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== null) return values[i]
  return null
}

/** One x axis for every series (their times may differ); a missing point stays a gap. */
function aligned(series: readonly AnalyticsSeries[], withBand: boolean): uPlot.AlignedData {
  const times = [...new Set(series.flatMap((s) => s.points.map((p) => p[0])))].sort((a, b) => a - b)
  const column = (s: AnalyticsSeries, field: 1 | 2 | 3) => {
    const at = new Map(s.points.map((p) => [p[0], p[field]]))
    return times.map((t) => at.get(t) ?? null)
  }
  const averages = series.map((s) => column(s, 1))
  return withBand ? [times, ...averages, column(series[0], 2), column(series[0], 3)] : [times, ...averages]
}
