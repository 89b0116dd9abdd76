// session/put|get|delete|invalidate (spec: Session; compat 6.12, AUTH-7, AUTH-9, CSRF-2). The CSRF
// token is the read-only attribute CSRFToken.
import { z } from 'zod'
import { endpoint } from '../http/api'
import { arg } from '../../shared/api/args'
import type { ApiDeps } from './deps'
import { emptyAnswer } from '../../shared/api/common'
import { sessionAttributes } from '../../shared/api/account'

const CSRF_KEY = 'CSRFToken'

export function sessionEndpoints({ sessions }: ApiDeps) {
  return [
    endpoint({
      path: 'session/put',
      summary: 'Stores every argument sent as a session attribute',
      answer: emptyAnswer,
      methods: ['GET', 'POST'],
      mutation: true,
      params: {},
      handle: ({ raw, session }) => {
        const attributes = { ...session.attributes }
        for (const [key, values] of raw) if (key !== CSRF_KEY) attributes[key] = values[values.length - 1]
        sessions.setAttributes(session.id, attributes)
        return {}
      }
    }),
    endpoint({
      path: 'session/get',
      summary: "Reads the session's attributes (all, or those named by key), CSRFToken included",
      answer: sessionAttributes,
      methods: ['GET', 'POST'],
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
      params: {},
      handle: ({ session }) => {
        sessions.invalidate(session.id)
        return {}
      }
    })
  ]
}
