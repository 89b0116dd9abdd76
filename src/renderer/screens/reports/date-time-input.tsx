// A date and time field: the browser's own datetime-local picker inside a Mantine input.
import { TextInput } from '@mantine/core'
import type { ReactNode } from 'react'
import { fromDateTimeLocal, toDateTimeLocal } from './time'

interface DateTimeInputProps {
  label: string
  value: number | undefined
  onChange: (unixSeconds: number | undefined) => void
  error?: ReactNode
  w?: number | string
}

export function DateTimeInput({ label, value, onChange, error, w = 220 }: DateTimeInputProps) {
  return (
    <TextInput type="datetime-local" label={label} w={w} error={error}
      value={value === undefined ? '' : toDateTimeLocal(value)}
      onChange={(e) => onChange(fromDateTimeLocal(e.currentTarget.value))} />
  )
}
