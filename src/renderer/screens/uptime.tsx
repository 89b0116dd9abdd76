// Uptime per host (reports/uptime/list) over a range kept in the URL; a host opens its services.
import { EmptyState, Group, Stack, TextInput } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useDebouncedValue } from '@mantine/hooks'
import { useDeferredValue, useEffect, useEffectEvent, useMemo, useState } from 'react'
import { uptimeHostsQuery } from '../api/uptime'
import { ErrorNote } from '../components/error-note'
import { ScreenTitle } from '../components/screen-title'
import { AnchorLink } from './reports/anchor-link'
import { EventsLink } from './reports/events-link'
import { ExportButton } from './reports/export-button'
import { RangePicker } from './reports/range-picker'
import { uptimeCsv } from './reports/report-csv'
import { UptimeSummary } from './reports/uptime-summary'
import { UptimeTable } from './reports/uptime-table'
import { uptimeRoute } from '../app/routes'

export function UptimeScreen() {
  const { q, ...search } = uptimeRoute.useSearch()
  const navigate = useNavigate({ from: '/uptime' })
  const report = useQuery(uptimeHostsQuery(search))
  const [text, setText] = useState(q ?? '')
  const find = useDeferredValue(text.trim().toLowerCase())
  const [typed] = useDebouncedValue(text.trim(), 300)
  // Only the typed text drives this; the current search is read when it fires.
  const followTyped = useEffectEvent((wanted: string) => {
    if ((wanted || undefined) !== q) void navigate({ search: (prev) => ({ ...prev, q: wanted || undefined }), replace: true })
  })
  useEffect(() => followTyped(typed), [typed])
  const items = useMemo(() => (report.data?.items ?? []).filter((h) => !find || h.name.toLowerCase().includes(find)), [report.data, find])
  return (
    <Stack gap="md">
      <ScreenTitle
        title="Uptime"
        loading={report.isFetching}
        loadingLabel="Loading the uptime report"
        actions={report.data && <ExportButton filename="overseer-uptime.csv" make={() => uptimeCsv(report.data, 'Host')} />}
      />
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <RangePicker value={search} onChange={(next) => void navigate({ search: { ...next, q } })} />
        <TextInput
          label="Find a host"
          placeholder="Part of its name"
          w={240}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
      </Group>
      <ErrorNote error={report.error} title="The uptime report could not be made" />
      {report.data && <UptimeSummary report={report.data} itemsLabel="Hosts" />}
      {report.data && report.data.items.length === 0 && (
        <EmptyState title="No hosts yet" description="Hosts appear here once their Monit agent reports to this server." />
      )}
      {report.data && report.data.items.length > 0 && items.length === 0 && (
        <EmptyState title="No host matches" description={`No host name contains "${text.trim()}".`} />
      )}
      {report.data && items.length > 0 && (
        <UptimeTable
          items={items}
          nameHeader="Host"
          inactiveLabel="Inactive"
          initialSort="name"
          maxHeight="max(360px, calc(100vh - 330px))"
          renderName={(host) => (
            <AnchorLink to="/uptime/$hostId" params={{ hostId: String(host.id) }} search={search} size="sm">
              {host.name}
            </AnchorLink>
          )}
          renderEvents={(host) => (
            <EventsLink count={host.events} hostId={host.id} from={report.data.datefrom} to={report.data.dateto} label={host.name} />
          )}
        />
      )}
    </Stack>
  )
}
