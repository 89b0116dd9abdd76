// Filters of the hosts list, shared by the services list: LED colours, host group (administrators:
// groups are theirs to see), a host name pattern and, for services, a service name pattern; every
// change goes to the URL.
import { Button, Chip, Group, Select, TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useEffectEvent, useState } from 'react'
import { adminGroupsQuery } from '../../api/admin'
import { useProfile } from '../../api/profile'

const ledColours = ['red', 'orange', 'green', 'gray']
const ledChoices = [
  { led: 0, label: 'Red' },
  { led: 1, label: 'Orange' },
  { led: 2, label: 'Green' },
  { led: 3, label: 'Gray' }
]

/** The filter fields in the URL of the hosts and services lists. */
export interface FilterFields {
  led?: number[]
  group?: number
  q?: string
  /** Services list only: part of the service name. */
  service?: string
}

interface Props<S extends FilterFields> {
  search: S
  /** Applied to the search as it is then. */
  onChange: (change: (prev: S) => S) => void
  /** Offers the service name filter (the services list). */
  services?: boolean
}

export function HostFilters<S extends FilterFields>({ search, onChange, services = false }: Props<S>) {
  const profile = useProfile()
  const [reset, setReset] = useState(0)
  const filtered = Boolean(search.led || search.group || search.q || search.service)
  return (
    <Group gap="md" align="flex-end" wrap="wrap">
      {services && (
        <PatternInput
          key={`service${reset}`}
          label="Service name contains"
          placeholder="e.g. nginx"
          value={search.service}
          onChange={(service) => onChange((prev) => ({ ...prev, service }))}
        />
      )}
      <PatternInput
        key={`host${reset}`}
        label="Host name contains"
        placeholder="e.g. web"
        value={search.q}
        onChange={(q) => onChange((prev) => ({ ...prev, q }))}
      />
      <Chip.Group
        multiple
        value={(search.led ?? []).map(String)}
        onChange={(values) => onChange((prev) => ({ ...prev, led: values.length ? values.map(Number).sort() : undefined }))}>
        <Group gap={6} role="group" aria-label={services ? 'Filter by service LED' : 'Filter by LED'}>
          {ledChoices.map(({ led, label }) => (
            <Chip key={led} value={String(led)} size="sm" variant="outline">
              <Group gap={6} wrap="nowrap" component="span">
                <LedDot led={led} />
                {label}
              </Group>
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      {profile.admin && <GroupFilter group={search.group} onChange={(group) => onChange((prev) => ({ ...prev, group }))} />}
      {filtered && (
        <Button
          variant="subtle"
          size="sm"
          onClick={() => {
            setReset((n) => n + 1)
            onChange((prev) => ({ ...prev, led: undefined, group: undefined, q: undefined, service: undefined }))
          }}>
          Clear filters
        </Button>
      )}
    </Group>
  )
}

/** A name pattern typed freely and applied once typing pauses. */
function PatternInput({
  label,
  placeholder,
  value,
  onChange
}: {
  label: string
  placeholder: string
  value?: string
  onChange: (pattern?: string) => void
}) {
  const [pattern, setPattern] = useState(value ?? '')
  const [debounced] = useDebouncedValue(pattern, 250)
  // Only the typed pattern drives this; the current value and onChange are read when it fires.
  const apply = useEffectEvent((typed: string) => {
    if ((typed.trim() || undefined) !== value) onChange(typed.trim() || undefined)
  })
  useEffect(() => apply(debounced), [debounced])
  return <TextInput label={label} placeholder={placeholder} value={pattern} w={220} onChange={(e) => setPattern(e.currentTarget.value)} />
}

/** The colour alone: the chip's text already names it. */
function LedDot({ led }: { led: number }) {
  return (
    <span
      aria-hidden
      style={{
        width: 10,
        height: 10,
        borderRadius: '50%',
        display: 'inline-block',
        background: `var(--mantine-color-${ledColours[led]}-${led === 1 || led === 3 ? 5 : 6})`
      }}
    />
  )
}

/** Loads the groups when first opened (or when the URL already names one): the list is not needed otherwise. */
function GroupFilter({ group, onChange }: { group?: number; onChange: (group?: number) => void }) {
  const [wanted, setWanted] = useState(group !== undefined)
  const groups = useQuery({ ...adminGroupsQuery, enabled: wanted })
  const data = (groups.data?.groups ?? []).map((g) => ({ value: String(g.id), label: g.name }))
  return (
    <Select
      label="Host group"
      placeholder={groups.isPending && wanted ? 'Loading…' : 'Any group'}
      w={200}
      clearable
      data={data}
      value={group === undefined ? null : String(group)}
      onDropdownOpen={() => setWanted(true)}
      onChange={(v) => onChange(v ? Number(v) : undefined)}
      error={groups.error ? groups.error.message : undefined}
      nothingFoundMessage={groups.isSuccess ? 'No host groups' : 'Loading…'}
    />
  )
}
