// One input per setting of a channel type (channel-types.ts): the form's values as the inputs hold them,
// and back to the API's arguments. Secrets are write-only: the input starts empty and says whether one
// is stored; left empty, the stored one stays.
import { MultiSelect, NumberInput, PasswordInput, Select, Switch, Textarea, TextInput } from '@mantine/core'
import type { AlertChannelRecord } from '../../api/alerts'
import type { ApiParams } from '../../api/client'
import type { ChannelField, ChannelTypeForm } from './channel-types'

export type FieldValue = string | boolean | string[]
export type FieldValues = Record<string, FieldValue>

/** The inputs' values for a new channel of this type, or for the stored `record`. */
export function fieldValues(form: ChannelTypeForm, record?: AlertChannelRecord): FieldValues {
  const values: FieldValues = {}
  for (const field of form.fields) {
    const stored = record ? record.settings[field.name] : undefined
    const list = Array.isArray(stored) ? stored.map(String) : []
    switch (field.kind) {
      case 'switch': values[field.name] = record ? stored === true : field.initial !== false; break
      case 'users': values[field.name] = list; break
      case 'lines': values[field.name] = list.join('\n'); break
      case 'secret': values[field.name] = ''; break
      default: values[field.name] = stored === undefined || stored === null ? (record ? '' : String(field.initial ?? '')) : String(stored)
    }
  }
  return values
}

/**
 * The settings as arguments. Lists go repeated, an empty one as one empty value (the API's "clear it");
 * single values as one-item lists, so that an emptied field reaches the server (the client drops a bare
 * empty value) — except a secret, where empty means "keep".
 */
export function settingsArguments(form: ChannelTypeForm, values: FieldValues): ApiParams {
  const params: ApiParams = {}
  for (const field of form.fields) {
    const value = values[field.name]
    if (field.kind === 'switch') params[field.name] = value === true
    else if (field.kind === 'users') params[field.name] = (value as string[]).length > 0 ? (value as string[]) : ['']
    else if (field.kind === 'lines') {
      const lines = String(value).split('\n').map((l) => l.trim()).filter((l) => l !== '')
      params[field.name] = lines.length > 0 ? lines : ['']
    } else if (field.kind === 'secret') params[field.name] = String(value)
    else params[field.name] = [String(value).trim()]
  }
  return params
}

interface FieldProps {
  field: ChannelField
  value: FieldValue
  onChange(value: FieldValue): void
  error?: string
  /** For a secret: whether one is stored */
  isSet?: boolean
  users: readonly { value: string; label: string }[]
}

export function ChannelFieldInput({ field, value, onChange, error, isSet, users }: FieldProps) {
  const common = { label: field.label, description: field.description, error, required: field.required && field.kind !== 'secret' }
  switch (field.kind) {
    case 'secret':
      return (
        <PasswordInput {...common} required={field.required && !isSet} value={String(value)} onChange={(e) => onChange(e.currentTarget.value)}
          placeholder={isSet ? 'set — leave empty to keep' : (field.placeholder ?? 'not set')} autoComplete="new-password" />
      )
    case 'switch':
      return <Switch label={field.label} description={field.description} error={error} checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />
    case 'select':
      return <Select {...common} data={field.options ?? []} value={String(value)} allowDeselect={false} onChange={(v) => v !== null && onChange(v)} />
    case 'number':
      return (
        <NumberInput {...common} placeholder={field.placeholder} value={String(value)} allowDecimal={false}
          onChange={(v) => onChange(String(v))} w={220} />
      )
    case 'lines':
      return <Textarea {...common} placeholder={field.placeholder} autosize minRows={2} value={String(value)} onChange={(e) => onChange(e.currentTarget.value)} />
    case 'users':
      return <MultiSelect {...common} data={users} value={value as string[]} onChange={onChange} searchable clearable nothingFoundMessage="No such user" />
    default:
      return <TextInput {...common} placeholder={field.placeholder} value={String(value)} onChange={(e) => onChange(e.currentTarget.value)} />
  }
}
