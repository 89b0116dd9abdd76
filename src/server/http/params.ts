// Request arguments as M/Monit takes them: from the query string or a form body alike, repeated keys
// forming lists (compat GEN-2), validated with zod. A bad argument is a 400 that names it.
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { HttpError } from './errors'

export type RawParams = Map<string, string[]>

/** Query string and form body, merged; every key maps to all its values in order. */
export function rawParams(request: FastifyRequest): RawParams {
  const params: RawParams = new Map()
  const add = (search: URLSearchParams) => {
    for (const [k, v] of search) params.set(k, [...(params.get(k) ?? []), v])
  }
  const q = request.url.indexOf('?')
  if (q >= 0) add(new URLSearchParams(request.url.slice(q + 1)))
  if (request.body instanceof URLSearchParams) add(request.body)
  return params
}

// Argument types of the spec: "number is a decimal integer, boolean is true or false".
export const arg = {
  int: (label = 'a whole number') => z.string().trim().regex(/^-?\d{1,15}$/, `expected ${label}`).transform(Number),
  bool: () => z.string().trim().toLowerCase()
    .refine((s) => ['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'].includes(s), 'expected true or false')
    .transform((s) => ['true', '1', 'on', 'yes'].includes(s)),
  text: (max = 1000) => z.string().max(max, `longer than ${max} characters`),
  required: (max = 1000) => z.string().trim().min(1, 'must not be empty').max(max, `longer than ${max} characters`),
  oneOf: <T extends string>(values: readonly [T, ...T[]]) => z.enum(values, { message: `expected one of ${values.join(', ')}` })
}

/** True for an argument that repeats (a zod array, possibly optional or defaulted). */
export function isList(schema: z.ZodType): boolean {
  let t = schema as z.ZodType & { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } } }
  // Through optional and default wrappers, and transforms (a pipe from the array).
  while (t._zod.def.innerType ?? t._zod.def.in) t = (t._zod.def.innerType ?? t._zod.def.in) as typeof t
  return t._zod.def.type === 'array'
}

/** Reads the arguments `shape` names from the request; list-typed ones collect every repeat. */
export function readParams<S extends z.ZodRawShape>(shape: S, raw: RawParams): z.output<z.ZodObject<S>> {
  const input: Record<string, unknown> = {}
  for (const [key, schema] of Object.entries(shape)) {
    const values = raw.get(key)
    if (values !== undefined) input[key] = isList(schema as z.ZodType) ? values : values[values.length - 1]
  }
  const parsed = z.object(shape).safeParse(input)
  if (parsed.success) return parsed.data
  throw argumentError(parsed.error, input)
}

/** The 400 naming the first bad argument of `input` (or, for a check across arguments, saying what is wrong). */
export function argumentError(error: z.ZodError, input: Record<string, unknown>): HttpError {
  const issue = error.issues[0]
  if (issue.path.length === 0) return new HttpError(400, `invalid arguments: ${issue.message}`)
  const name = String(issue.path[0])
  const message = issue.code === 'invalid_type' && input[name] === undefined ? 'is required' : issue.message
  return new HttpError(400, `invalid argument '${name}': ${message}`)
}
