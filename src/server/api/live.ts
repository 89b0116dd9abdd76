// live (our extension): the change feed as Server-Sent Events for a logged-in caller (live/sse-route.ts).
import { arg } from '../../shared/api/args'
import { bearerToken } from '../auth/api-tokens'
import { SESSION_COOKIE } from '../auth/sessions'
import { endpoint, type ApiEndpoint } from '../http/api'
import { LiveStreams } from '../live/sse-route'
import type { ApiDeps } from './deps'

/** Absent without a feed (servers built without live updates). */
export function liveEndpoints({ feed, principals, sessions, apiTokens }: ApiDeps): ApiEndpoint[] {
  if (!feed || !principals) return []
  const streams = new LiveStreams({
    feed,
    principals,
    // A stream opened with an API token lasts while the token is valid (http/session-gate.ts).
    loggedIn: (request) => {
      const token = bearerToken(request.headers.authorization)
      if (token !== undefined) return apiTokens.authenticate(token) !== undefined
      return sessions.resume(request.cookies[SESSION_COOKIE])?.userId != null
    }
  })
  return [
    endpoint({
      path: 'live',
      methods: ['GET'],
      extension: true,
      summary:
        'Changes as Server-Sent Events (host-changed, host-removed, …) for the hosts the caller may view; resumes after Last-Event-ID',
      params: { lastEventId: arg.text().optional() },
      answer: 'text/event-stream',
      closing: () => streams.closeAll(),
      handle: ({ params, request, reply, principal }) => {
        streams.serve(request, reply, principal.userId, principal, params.lastEventId)
      }
    })
  ]
}
