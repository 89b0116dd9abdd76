// A channel's settings from the request's arguments (admin/alerts/channels/create and update): each
// field of the type's settings schema is an argument of the same name, repeatable when it is a list.
import type { z } from 'zod'
import { isRepeatable } from '../../shared/alert-channel-settings/args'
import type { ChannelType } from '../alerting/channel'
import { keepHiddenHeaderValues, type Settings } from '../alerting/channel-secrets'
import { badArgument } from '../http/errors'
import { argumentError, isList, type RawParams } from '../http/params'

interface ZodInternals {
  _zod: { def: { shape?: Record<string, z.ZodType>; in?: z.ZodType; innerType?: z.ZodType } }
}

/** The fields of a settings schema: an object, possibly refined, transformed or wrapped. */
function fieldsOf(schema: z.ZodType): Record<string, z.ZodType> {
  const def = (schema as unknown as ZodInternals)._zod.def
  if (def.shape) return def.shape
  const inner = def.in ?? def.innerType
  return inner ? fieldsOf(inner) : {}
}

/** A stored value as the argument that gave it: schemas parse arguments, which are text. */
function asArgument(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asArgument)
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value
}

/**
 * The type's settings parsed from `raw`. A list sent as one empty value is empty (so that an update can
 * clear it). With `stored` (update), every setting left out keeps its stored value, and so does a secret
 * sent empty: the API never shows it, so a form cannot send it back.
 */
export function readChannelSettings(type: ChannelType, raw: RawParams, stored: Settings = {}): Settings {
  const input: Record<string, unknown> = {}
  for (const [name, schema] of Object.entries(fieldsOf(type.settings))) {
    const values = raw.get(name)
    const secretKept = type.secretFields.includes(name) && (values === undefined || values[values.length - 1] === '')
    if (values === undefined || secretKept) {
      if (stored[name] !== undefined) input[name] = asArgument(stored[name])
    } else {
      input[name] = isList(schema) || isRepeatable(schema) ? values.filter((v) => v !== '') : values[values.length - 1]
    }
    if (type.secretHeaderFields?.includes(name) && Array.isArray(input[name])) {
      const { lines, missing } = keepHiddenHeaderValues(input[name] as string[], stored[name])
      if (missing !== undefined) throw badArgument(name, `header "${missing}" has no stored value to keep: type its value`)
      input[name] = lines
    }
  }
  const parsed = type.settings.safeParse(input)
  if (!parsed.success) throw argumentError(parsed.error, input)
  return parsed.data as Settings
}
