// One error shape for every JSON answer: {"error": "..."} with the right status (compat ERR-1), plus
// {"argument": "name"} when one argument is at fault (ours: M/Monit clients ignore the extra field).
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify'
import type { Logger } from '../log'
import type { StorageHealth } from '../metrics/storage-health'
import { badArgument, HttpError, storageUnavailable } from '../web/http-error'
import { endpointsByUrl, methodNotAllowed, type ApiEndpoint } from './api'
import { unavailablePage } from './login-page'
import type { SessionGate } from './session-gate'

// The routes throw these; they live in web/ so that the collector's handler can too.
export { badArgument, HttpError, storageUnavailable }

export function installErrorHandling(
  app: FastifyInstance,
  log: Logger,
  gate: SessionGate,
  storage: StorageHealth,
  endpoints: readonly ApiEndpoint[]
): void {
  const endpointAt = endpointsByUrl(endpoints)
  /** A browser asking for a page (the console, the login form), not an API call or a collector message. */
  const asksForPage = (request: FastifyRequest) =>
    (request.method === 'GET' || request.method === 'HEAD') &&
    !endpointAt.has(request.url.split('?')[0]) &&
    (request.headers.accept ?? '').includes('text/html')
  app.setErrorHandler((err: FastifyError | HttpError, request, reply) => {
    const storageCode = storage.writeFailed(err)
    if (storageCode !== undefined) err = storageUnavailable(storageCode)
    // Such a page gets a page in the console's look, not JSON.
    if (storageCode !== undefined && asksForPage(request)) {
      return reply
        .code(503)
        .headers((err as HttpError).headers)
        .type('text/html')
        .send(unavailablePage(err.message))
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500
    if (err instanceof HttpError) reply.headers(err.headers)
    // Thrown on purpose with words for the caller: a 502, a server this one asked (an M/Monit import's
    // source) failed; a 503, a dependency that is busy (a read past its wait, a shutdown) for a while.
    const onPurpose = err instanceof HttpError && (status === 502 || status === 503)
    if (status >= 500 && storageCode === undefined && !onPurpose) {
      log.error(`${request.method} ${request.url.split('?')[0]} failed: ${err.stack ?? err.message}`)
      return reply.code(status).send({ error: 'internal server error' })
    }
    const argument = err instanceof HttpError ? err.argument : undefined
    return reply.code(status).send(argument === undefined ? { error: clientMessage(err) } : { error: clientMessage(err), argument })
  })
  // Unknown paths: the login page without a session (compat AUTH-5), a JSON 404 with one. Only a GET
  // (or HEAD) gets the login page: a 200 to a POST would tell a client that pushes data, such as a
  // Monit agent with a misspelt collector URL, that it was delivered, and it would drop the message.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]
    const e = endpointAt.get(path)
    if (e) {
      // An API endpoint asked with a method other than GET or POST (only those two are routed,
      // http/api.ts): a 405 after the session's check, as for the wrong one of the two.
      if (e.access !== 'public' && !gate.caller(request, reply)) return reply
      throw methodNotAllowed(e.path, e.methods)
    }
    const readsPage = request.method === 'GET' || request.method === 'HEAD'
    if (readsPage && !gate.caller(request, reply, false)) return reply
    return reply.code(404).send({ error: `no such resource: ${path}` })
  })
}

function clientMessage(err: FastifyError | HttpError): string {
  switch ((err as FastifyError).code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'request body is too large'
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported Content-Type'
    default:
      return err.message
  }
}
