// Every filter of reports/events/list. Each change goes straight to the URL (the list follows it);
// the host picker asks the server for matching names, so it stays small with 10,000 hosts.
import { Button, Group, Input, MultiSelect, Pill, SegmentedControl, Select, Stack } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useQueries, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { eventClasses, serviceTypeLabels } from '../../../shared/codes'
import {
  hostGroupsQuery, hostNamesQuery, hostOptionsQuery, hostServicesQuery, type EventSearch, type HostOption
} from '../../api/events'
import { useProfile } from '../../api/profile'
import { Range } from '../../../shared/ranges'
import { RangePicker } from './range-picker'
import { eventStates } from './event-state'

/** Services are offered from the first hosts chosen; more would make the picker slow to fill. */
const SERVICE_SOURCE_HOSTS = 10

interface EventFiltersProps {
  search: EventSearch
  onChange: (patch: Partial<EventSearch>) => void
  onClear: () => void
  /** Service names seen in the list, so a service chosen from a row has its name. */
  knownServices: ReadonlyMap<number, string>
}

export function EventFilters({ search, onChange, onClear, knownServices }: EventFiltersProps) {
  const profile = useProfile()
  return (
    <Stack gap="sm" component="section" aria-label="Event filters">
      <Group gap="sm" align="flex-start" wrap="wrap">
        <HostPicker value={search.host ?? []} onChange={(host) => onChange({ host: host.length ? host : undefined })} />
        {profile.admin && <HostGroupPicker value={search.group} onChange={(group) => onChange({ group })} />}
        <ServicePicker hosts={search.host ?? []} value={search.service} knownServices={knownServices}
          onChange={(service) => onChange({ service })} />
        <Select label="Service type" placeholder="Any type" w={160} clearable
          data={serviceTypeLabels.map((label, i) => ({ value: String(i), label }))}
          value={search.servicetype === undefined ? null : String(search.servicetype)}
          onChange={(v) => onChange({ servicetype: v === null ? undefined : Number(v) })} />
        <Select label="Event type" placeholder="Any event" w={160} clearable searchable
          data={eventClasses.map((c) => ({ value: String(c.id), label: c.name }))}
          value={search.eventtype === undefined ? null : String(search.eventtype)}
          onChange={(v) => onChange({ eventtype: v === null ? undefined : Number(v) })} />
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Input.Wrapper label="State" labelElement="div" labelProps={{ id: 'event-state-label' }}>
          <SegmentedControl display="flex" aria-labelledby="event-state-label"
            data={[{ value: 'all', label: 'All' }, ...eventStates.map((s) => ({ value: String(s.value), label: s.label }))]}
            value={search.state === undefined ? 'all' : String(search.state)}
            onChange={(v) => onChange({ state: v === 'all' ? undefined : Number(v) })} />
        </Input.Wrapper>
        <Select label="Show" w={200} allowDeselect={false}
          data={[{ value: '0', label: 'All events' }, { value: '1', label: 'Active errors' }, { value: '2', label: 'Active, not dismissed' }]}
          value={String(search.active ?? 0)}
          onChange={(v) => onChange({ active: v === '0' || v === null ? undefined : Number(v) })} />
        <RangePicker fallback="any" value={pickedRange(search)} onChange={({ range, from, to }) => onChange({ range, from, to })} />
        {search.servicegroup !== undefined && (
          <Pill withRemoveButton onRemove={() => onChange({ servicegroup: undefined })}
            removeButtonProps={{ 'aria-hidden': false, 'aria-label': 'Remove the service group filter' }}>
            Service group {search.servicegroup}
          </Pill>
        )}
        <Button variant="subtle" onClick={onClear}>Clear filters</Button>
      </Group>
    </Stack>
  )
}

/** Dates without a range (a link from the uptime report) read as a custom range. */
function pickedRange({ range, from, to }: EventSearch): { range?: number; from?: number; to?: number } {
  const dated = from !== undefined || to !== undefined
  return { range: range ?? (dated ? Range.Custom : undefined), from, to }
}

function HostPicker({ value, onChange }: { value: number[]; onChange: (ids: number[]) => void }) {
  const [pattern, setPattern] = useState('')
  const [debounced] = useDebouncedValue(pattern.trim(), 250)
  const options = useQuery(hostOptionsQuery(debounced))
  const chosen = useQuery(hostNamesQuery(value))
  // The chosen hosts must stay among the options, or the picker would lose their names.
  const byId = new Map<number, HostOption>()
  for (const h of [...(chosen.data ?? []), ...(options.data ?? [])]) byId.set(h.id, h)
  for (const id of value) if (!byId.has(id)) byId.set(id, { id, hostname: `Host ${id}` })
  return (
    <MultiSelect label="Hosts" placeholder={value.length ? undefined : 'Any host'} w={310} searchable clearable
      data={[...byId.values()].map((h) => ({ value: String(h.id), label: h.hostname }))}
      value={value.map(String)} onChange={(v) => onChange(v.map(Number))}
      searchValue={pattern} onSearchChange={setPattern}
      // The server already matched the names.
      filter={({ options: all }) => all}
      nothingFoundMessage={options.isFetching ? 'Searching…' : 'No host matches'}
      error={options.error ? options.error.message : undefined} />
  )
}

function HostGroupPicker({ value, onChange }: { value: number | undefined; onChange: (id: number | undefined) => void }) {
  const groups = useQuery(hostGroupsQuery(true))
  return (
    <Select label="Host group" placeholder={groups.data?.length === 0 ? 'No groups' : 'Any group'} w={170} clearable searchable
      data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
      value={value === undefined ? null : String(value)}
      onChange={(v) => onChange(v === null ? undefined : Number(v))}
      error={groups.error ? groups.error.message : undefined} />
  )
}

interface ServicePickerProps {
  hosts: number[]
  value: number | undefined
  knownServices: ReadonlyMap<number, string>
  onChange: (nameId: number | undefined) => void
}

/** Services by name: one choice covers the service of that name on every chosen host. */
function ServicePicker({ hosts, value, knownServices, onChange }: ServicePickerProps) {
  const services = useQueries({ queries: hosts.slice(0, SERVICE_SOURCE_HOSTS).map((id) => hostServicesQuery(id)) })
  const names = new Map<number, string>()
  for (const result of services) for (const s of result.data ?? []) names.set(s.nameid, s.name)
  if (value !== undefined && !names.has(value)) names.set(value, knownServices.get(value) ?? `Service ${value}`)
  const failed = services.find((s) => s.error)?.error
  const empty = names.size === 0
  return (
    <Select label="Service" w={180} clearable searchable disabled={empty}
      placeholder={empty ? 'Choose a host first' : 'Any service'}
      data={[...names].sort((a, b) => a[1].localeCompare(b[1])).map(([id, name]) => ({ value: String(id), label: name }))}
      value={value === undefined ? null : String(value)}
      onChange={(v) => onChange(v === null ? undefined : Number(v))}
      error={failed ? failed.message : undefined} />
  )
}
