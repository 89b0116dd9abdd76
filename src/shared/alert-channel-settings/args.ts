// Building blocks for a channel type's settings schema (issue 13), shared by the server, which parses
// the API's arguments with them, and the console's channel form, which checks its fields with them first
// (so: no Node modules here). A schema must take the settings in
// two forms alike: as the API's form arguments (strings; a repeatable one a string or a list of them;
// any one possibly repeated, the last value winning as in M/Monit) and as it stored them before (JSON
// of its own output: numbers, booleans, lists), so that parsing the stored settings again is a no-op.
// An empty argument counts as absent. Messages say what is expected, for `invalid argument 'x': …`.
import { z } from 'zod'

type Parse<T> = (value: unknown) => { ok: true; value: T } | { ok: false; message: string }

const absent = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

function scalar<T>(parse: Parse<T>) {
  const one = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v)
  // Through z.preprocess, so that an absent key reaches the check too (z.object skips a bare
  // z.unknown() for an absent key and then calls the undefined result a missing value).
  const check = (required: boolean, fallback?: T) =>
    z.preprocess(
      (raw) => raw,
      z.unknown().transform((raw, ctx): T | undefined => {
        const v = one(raw)
        if (absent(v)) {
          if (fallback !== undefined) return fallback
          if (required) ctx.addIssue({ code: 'custom', message: 'is required' })
          return required ? z.NEVER : undefined
        }
        const r = parse(v)
        if (r.ok) return r.value
        ctx.addIssue({ code: 'custom', message: r.message })
        return z.NEVER
      })
    )
  return {
    required: () => check(true) as z.ZodType<T>,
    optional: () => check(false) as z.ZodType<T | undefined>,
    default: (value: T) => check(false, value) as z.ZodType<T>
  }
}

/** A string with no control characters (no header or argument injection), trimmed, within `max`. */
export function text(max: number, check?: (s: string) => string | undefined) {
  return scalar<string>((v) => {
    if (typeof v !== 'string') return { ok: false, message: 'expected text' }
    const s = v.trim()
    if (s.length > max) return { ok: false, message: `longer than ${max} characters` }
    if (/[\u0000-\u001f\u007f]/.test(s)) return { ok: false, message: 'must not contain control characters' }
    const problem = check?.(s)
    return problem ? { ok: false, message: problem } : { ok: true, value: s }
  })
}

/** Like text, but kept exactly as given (a password may start or end with a space); no NUL, CR or LF. */
export function secret(max: number) {
  return scalar<string>((v) => {
    if (typeof v !== 'string') return { ok: false, message: 'expected text' }
    if (v.length > max) return { ok: false, message: `longer than ${max} characters` }
    if (/[\u0000\r\n]/.test(v)) return { ok: false, message: 'must not contain NUL or line breaks' }
    return { ok: true, value: v }
  })
}

/** A whole number in [min, max], from a number or its decimal text. */
export function int(min: number, max: number, what = 'a whole number') {
  return scalar<number>((v) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d{1,15}\s*$/.test(v) ? Number(v) : NaN
    return Number.isInteger(n) && n >= min && n <= max
      ? { ok: true, value: n }
      : { ok: false, message: `expected ${what} from ${min} to ${max}` }
  })
}

/** true or false (also 1/0, on/off, yes/no as form arguments). */
export function bool() {
  return scalar<boolean>((v) => {
    if (typeof v === 'boolean') return { ok: true, value: v }
    const s = typeof v === 'string' ? v.trim().toLowerCase() : ''
    if (['true', '1', 'on', 'yes'].includes(s)) return { ok: true, value: true }
    if (['false', '0', 'off', 'no'].includes(s)) return { ok: true, value: false }
    return { ok: false, message: 'expected true or false' }
  })
}

export function oneOf<T extends string>(values: readonly T[]) {
  return scalar<T>((v) => {
    const s = typeof v === 'string' ? v.trim().toLowerCase() : undefined
    return s !== undefined && (values as readonly string[]).includes(s)
      ? { ok: true, value: s as T }
      : { ok: false, message: `expected one of ${values.join(', ')}` }
  })
}

/** The schemas list() made: z.preprocess hides that they take a list from a look at the schema. */
const repeatable = new WeakSet<z.ZodType>()

/** Whether the API's argument of this setting is repeatable, all of its values going to the schema. */
export function isRepeatable(schema: z.ZodType): boolean {
  return repeatable.has(schema)
}

/**
 * A repeatable argument: absent, one value or a list; empty entries dropped; each entry checked by
 * `item` (one of the scalars above, .required()); at most `max` entries. Always a list (maybe empty).
 */
export function list<T>(item: z.ZodType<T>, max: number) {
  const schema = z.preprocess(
    (raw) => raw,
    z.unknown().transform((raw, ctx): T[] => {
      const values = (raw === undefined || raw === null ? [] : Array.isArray(raw) ? raw : [raw]).filter((v) => !absent(v))
      if (values.length > max) {
        ctx.addIssue({ code: 'custom', message: `at most ${max} values` })
        return z.NEVER
      }
      const out: T[] = []
      for (const v of values) {
        const r = item.safeParse(v)
        if (!r.success) {
          ctx.addIssue({ code: 'custom', message: `${JSON.stringify(String(v)).slice(0, 80)}: ${r.error.issues[0]?.message ?? 'invalid'}` })
          return z.NEVER
        }
        out.push(r.data)
      }
      return out
    })
  )
  repeatable.add(schema)
  return schema
}

// Plain zod building blocks of the HTTP channels' settings (form values are strings).

/** A required http(s) URL. */
export function httpUrl(what = 'url') {
  return z
    .string({ message: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .refine(isHttpUrl, `${what} must be an http:// or https:// URL`)
}

/** An optional http(s) URL, `fallback` when empty or absent. */
export function httpUrlOr(fallback: string, what = 'url') {
  return z
    .string({ message: `${what} must be an http:// or https:// URL` })
    .trim()
    .optional()
    .transform((v) => v || fallback)
    .refine(isHttpUrl, `${what} must be an http:// or https:// URL`)
}

/** An optional secret (token, shared secret): empty means none. */
export function optionalSecret(what: string, max = 1000) {
  return z
    .string({ message: `${what} must be text` })
    .trim()
    .max(max, `${what} is longer than ${max} characters`)
    .optional()
    .transform((v) => v || undefined)
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}
