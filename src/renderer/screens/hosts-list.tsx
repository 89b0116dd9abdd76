// Every host the user may view, what fails on it and since when, its figures and last report: filtered
// by LED, group and name (in the URL), sorted by the server (needing attention first), virtualised and
// paged as the user scrolls. Administrators select hosts for bulk actions. Live: the 'status' key
// refreshes the pages on screen.
import { Button, Stack, Text, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { useProfile } from '../api/profile'
import { HostBulkActions } from './monitor/host-bulk-actions'
import { HostFilters } from './monitor/host-filters'
import { hostFilter, type HostSearch } from './monitor/host-search'
import { HostTable, type HostSelection } from './monitor/host-table'
import { hostsRoute } from '../app/routes'

export function HostsScreen() {
  const search = hostsRoute.useSearch()
  const navigate = hostsRoute.useNavigate()
  const profile = useProfile()
  const selection = useSelection()
  // From the search as it is when applied: a debounced name pattern must not undo a sort clicked meanwhile.
  const update = (change: (prev: HostSearch) => HostSearch) => void navigate({ search: (prev) => change(prev), replace: true })
  const filtered = Boolean(search.led || search.group || search.q)
  return (
    <Stack gap="md">
      <Title order={2}>Hosts</Title>
      <HostFilters search={search} onChange={update} />
      {profile.admin && <HostBulkActions ids={[...selection.ids]} onDone={() => selection.setMany([...selection.ids], false)} />}
      <HostTable
        filter={hostFilter(search)}
        onSort={(sort, dir) => update((prev) => ({ ...prev, sort, dir }))}
        selection={profile.admin ? selection : undefined}
        empty={
          filtered ? (
            <Text c="dimmed" data-testid="hosts-empty">
              No host matches these filters.
            </Text>
          ) : (
            <Stack align="flex-start" data-testid="hosts-empty">
              <Text>No hosts yet. Hosts appear here when their Monit agent first reports to this server.</Text>
              <Button component={Link} to="/" variant="light">
                How to connect an agent
              </Button>
            </Stack>
          )
        }
      />
    </Stack>
  )
}

function useSelection(): HostSelection {
  const [ids, setIds] = useState<ReadonlySet<number>>(new Set())
  return {
    ids,
    toggle: (id) =>
      setIds((prev) => {
        const next = new Set(prev)
        if (!next.delete(id)) next.add(id)
        return next
      }),
    setMany: (many, on) =>
      setIds((prev) => {
        const next = new Set(prev)
        for (const id of many)
          if (on) next.add(id)
          else next.delete(id)
        return next
      })
  }
}
