// A channel form's values as its inputs hold them (channel-fields.tsx), from a stored channel and back
// to the API's arguments. Secrets are write-only: their inputs start empty, and empty keeps the stored one.
import type { AlertChannelRecord } from '../../api/alerts'
import type { ApiParams } from '../../api/client'
import type { ChannelTypeForm } from './channel-types'

export type FieldValue = string | boolean | string[]
export type FieldValues = Record<string, FieldValue>

/** The inputs' values for a new channel of this type, or for the stored `record`. */
export function fieldValues(form: ChannelTypeForm, record?: AlertChannelRecord): FieldValues {
  const values: FieldValues = {}
  for (const field of form.fields) {
    const stored = record ? record.settings[field.name] : undefined
    const list = Array.isArray(stored) ? stored.map(String) : []
    switch (field.kind) {
      case 'switch':
        values[field.name] = record ? stored === true : field.initial !== false
        break
      case 'users':
        values[field.name] = list
        break
      case 'lines':
        values[field.name] = list.join('\n')
        break
      case 'secret':
        values[field.name] = ''
        break
      default:
        values[field.name] = stored === undefined || stored === null ? (record ? '' : String(field.initial ?? '')) : String(stored)
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
      const lines = String(value)
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '')
      params[field.name] = lines.length > 0 ? lines : ['']
    } else if (field.kind === 'secret') params[field.name] = String(value)
    else params[field.name] = [String(value).trim()]
  }
  return params
}
