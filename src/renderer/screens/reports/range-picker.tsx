// The one time-range picker of the console (host charts, events, uptime): quick ranges from the last
// hour to years, or a custom one from two date pickers applied together. The choice lives in the URL.
import { Button, Group, Select, Text } from '@mantine/core'
import { useState, type FormEvent } from 'react'
import { Range } from '../../../shared/ranges'
import type { UptimeSearch } from '../../api/uptime'
import { DateTimeInput } from './date-time-input'
import { rangeLabels } from './uptime-search'

const DAY = 86_400
const ANY = 'any'

interface RangePickerProps {
  value: UptimeSearch
  onChange: (next: UptimeSearch) => void
  /** The range meant when the URL names none (it stays out of the URL); 'any': no range at all (events). */
  fallback?: Range | typeof ANY
}

export function RangePicker({ value, onChange, fallback = Range.Now }: RangePickerProps) {
  const range = value.range ?? fallback
  const [custom, setCustom] = useState(range === Range.Custom)
  const now = Math.floor(Date.now() / 60_000) * 60
  const [from, setFrom] = useState<number | undefined>(value.from ?? now - DAY)
  const [to, setTo] = useState<number | undefined>(value.to ?? now)
  const [tried, setTried] = useState(false)
  const problem: { from?: string; to?: string } = from === undefined ? { from: 'Choose a start' }
    : to === undefined ? { to: 'Choose an end' }
      : to <= from ? { to: 'Must be after the start' } : {}
  const apply = (e: FormEvent) => {
    e.preventDefault()
    setTried(true)
    if (from !== undefined && to !== undefined && to > from) onChange({ range: Range.Custom, from, to })
  }
  const choose = (v: string | null) => {
    const next = v === ANY || v === null ? fallback : (Number(v) as Range)
    setCustom(next === Range.Custom)
    setTried(false)
    if (next === fallback || next === ANY) onChange({})
    else if (next !== Range.Custom) onChange({ range: next })
  }
  const options = Object.entries(rangeLabels).map(([id, label]) => ({ value: id, label }))
  return (
    <Group gap="sm" align="flex-start" wrap="wrap">
      <Select label="Range" w={180} allowDeselect={false}
        data={fallback === ANY ? [{ value: ANY, label: 'Any time' }, ...options] : options}
        value={String(custom ? Range.Custom : range)} onChange={choose} />
      {custom && (
        <form onSubmit={apply} aria-label="Custom range">
          <Group gap="sm" align="flex-start">
            <DateTimeInput label="From" value={from} onChange={setFrom} error={tried ? problem.from : undefined} />
            <DateTimeInput label="To" value={to} onChange={setTo} error={tried ? problem.to : undefined} />
            <Button type="submit" variant="light" mt={25}>Apply</Button>
          </Group>
        </form>
      )}
      {custom && range !== Range.Custom && <Text size="sm" c="dimmed" mt={32}>Choose the dates, then Apply.</Text>}
    </Group>
  )
}
