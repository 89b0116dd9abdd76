// One input per setting of a channel type (channel-types.ts). A secret's input starts empty and says
// whether one is stored; left empty, the stored one stays.
import { MultiSelect, NumberInput, PasswordInput, Select, Switch, Textarea, TextInput } from '@mantine/core'
import type { ReactNode } from 'react'
import type { ChannelField } from './channel-types'
import type { FieldValue } from './channel-values'

interface FieldProps {
  field: ChannelField
  value: FieldValue
  onChange(value: FieldValue): void
  error?: ReactNode
  /** For a secret: whether one is stored */
  isSet?: boolean
  users: readonly { value: string; label: string }[]
}

export function ChannelFieldInput({ field, value, onChange, error, isSet, users }: FieldProps) {
  const common = { label: field.label, description: field.description, error, required: field.required && field.kind !== 'secret' }
  switch (field.kind) {
    case 'secret':
      return (
        <PasswordInput
          {...common}
          required={field.required && !isSet}
          value={String(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
          placeholder={isSet ? 'set — leave empty to keep' : (field.placeholder ?? 'not set')}
          autoComplete="new-password"
        />
      )
    case 'switch':
      return (
        <Switch
          label={field.label}
          description={field.description}
          error={error}
          checked={value === true}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
      )
    case 'select':
      return (
        <Select
          {...common}
          data={field.options ?? []}
          value={String(value)}
          allowDeselect={false}
          onChange={(v) => v !== null && onChange(v)}
        />
      )
    case 'number':
      return (
        <NumberInput
          {...common}
          placeholder={field.placeholder}
          value={String(value)}
          allowDecimal={false}
          onChange={(v) => onChange(String(v))}
          w={220}
        />
      )
    case 'lines':
      return (
        <Textarea
          {...common}
          placeholder={field.placeholder}
          autosize
          minRows={2}
          value={String(value)}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      )
    case 'users':
      return (
        <MultiSelect
          {...common}
          data={users}
          value={value as string[]}
          onChange={onChange}
          searchable
          clearable
          nothingFoundMessage="No such user"
        />
      )
    default:
      return (
        <TextInput {...common} placeholder={field.placeholder} value={String(value)} onChange={(e) => onChange(e.currentTarget.value)} />
      )
  }
}
