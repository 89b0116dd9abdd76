// Request arguments as M/Monit takes them: from the query string or a form body alike, repeated keys
// forming lists (compat GEN-2), validated with zod. A bad argument is a 400 that names it.
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { badArgument, HttpError } from '../web/http-error'

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
  return badArgument(name, message)
}

/** Reads the arguments `shape` names from a JSON object body; anything but application/json is a 415. */
export function readJsonParams<S extends z.ZodRawShape>(shape: S, request: FastifyRequest): z.output<z.ZodObject<S>> {
  if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new HttpError(415, 'send the arguments as application/json')
  }
  const body = request.body
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badArgument('body', 'expected a JSON object')
  }
  const parsed = z.object(shape).safeParse(body)
  if (parsed.success) return parsed.data
  throw argumentError(parsed.error, body as Record<string, unknown>)
}
