// session/put|get|delete|invalidate (spec: Session; compat 6.12, AUTH-7, AUTH-9, CSRF-2). The CSRF
// token is the read-only attribute CSRFToken.
import { z } from 'zod'
import { endpoint } from '../http/api'
import type { RawParams } from '../http/params'
import { arg } from '../../shared/api/args'
import type { ApiDeps } from './deps'
import { HttpError } from '../web/http-error'
import { emptyAnswer } from '../../shared/api/common'
import { sessionAttributes } from '../../shared/api/account'

const CSRF_KEY = 'CSRFToken'
/** Bounds on what a session stores for its client (every session may hold this much). */
export const MAX_ATTRIBUTES = 64
export const MAX_ATTRIBUTE_NAME = 128
export const MAX_ATTRIBUTE_VALUE = 4096
/** All of them together, as stored (JSON). */
export const MAX_ATTRIBUTES_SIZE = 16_384

/** The session's attributes with those sent put in; a 400 past the bounds, storing nothing. */
function withPut(attributes: Record<string, string>, raw: RawParams): Record<string, string> {
  const next = { ...attributes }
  for (const [key, values] of raw) {
    if (key === CSRF_KEY) continue
    if (key.length > MAX_ATTRIBUTE_NAME) throw new HttpError(400, `a session attribute name is at most ${MAX_ATTRIBUTE_NAME} characters`)
    const value = values[values.length - 1]
    if (value.length > MAX_ATTRIBUTE_VALUE) {
      throw new HttpError(400, `session attribute ${key}: a value is at most ${MAX_ATTRIBUTE_VALUE} characters`)
    }
    next[key] = value
  }
  if (Object.keys(next).length > MAX_ATTRIBUTES) throw new HttpError(400, `a session holds at most ${MAX_ATTRIBUTES} attributes`)
  if (JSON.stringify(next).length > MAX_ATTRIBUTES_SIZE) {
    throw new HttpError(400, `a session's attributes take at most ${MAX_ATTRIBUTES_SIZE} characters in all`)
  }
  return next
}

export function sessionEndpoints({ sessions }: ApiDeps) {
  return [
    endpoint({
      path: 'session/put',
      summary: 'Stores every argument sent as a session attribute',
      answer: emptyAnswer,
      methods: ['GET', 'POST'],
      needsSession: true,
      mutation: true,
      params: {},
      handle: ({ raw, session }) => {
        sessions.setAttributes(session.id, withPut(session.attributes, raw))
        return {}
      }
    }),
    endpoint({
      path: 'session/get',
      summary: "Reads the session's attributes (all, or those named by key), CSRFToken included",
      answer: sessionAttributes,
      methods: ['GET', 'POST'],
      needsSession: true,
      params: { key: z.array(arg.text()).optional() },
      handle: ({ params, session }) => {
        const all: Record<string, string> = { ...session.attributes, [CSRF_KEY]: session.csrfToken }
        if (!params.key?.length) return all
        return Object.fromEntries(params.key.filter((k) => k in all).map((k) => [k, all[k]]))
      }
    }),
    endpoint({
      path: 'session/delete',
      summary: 'Deletes the named attributes (every one without key)',
      answer: emptyAnswer,
      methods: ['GET', 'POST'],
      needsSession: true,
      mutation: true,
      params: { key: z.array(arg.text()).optional() },
      handle: ({ params, session }) => {
        // No key deletes every attribute (the spec describes both readings; this one is the superset).
        const keep = params.key?.length ? Object.entries(session.attributes).filter(([k]) => !params.key!.includes(k)) : []
        sessions.setAttributes(session.id, Object.fromEntries(keep))
        return {}
      }
    }),
    endpoint({
      path: 'session/invalidate',
      summary: 'Logs out: ends the session',
      answer: emptyAnswer,
      methods: ['GET', 'POST'],
      needsSession: true,
      params: {},
      handle: ({ session }) => {
        sessions.invalidate(session.id)
        return {}
      }
    })
  ]
}
