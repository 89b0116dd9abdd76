// The server's own downtime over the report's range: a strip with a distinct, striped segment for each
// time the server was not running. The report counts that time as unknown, neither up nor down.
import { Progress, Tooltip } from '@mantine/core'
import type { UptimeReport } from '../../api/uptime'
import { serverSegments } from './server-downtime-segments'
import { formatDateTime } from './time'

export function ServerDowntimeStrip({ report }: { report: UptimeReport }) {
  const segments = serverSegments(report, Date.now() / 1000)
  return (
    <Progress.Root size="lg" w={280} aria-label="When the server was running">
      {segments.map((s) => {
        const label = `${s.running ? 'Server running' : 'Server not running (unknown)'}: ${formatDateTime(s.from)} – ${formatDateTime(s.to)}`
        return (
          <Tooltip key={s.from} label={label} withArrow>
            <Progress.Section value={s.percent} color={s.running ? 'teal.2' : 'gray.6'} striped={!s.running} aria-label={label}
              data-server-running={s.running} />
          </Tooltip>
        )
      })}
    </Progress.Root>
  )
}
