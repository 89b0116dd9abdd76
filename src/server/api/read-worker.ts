// A read thread's entry (PostgreSQL): serves the `pureRead` endpoints (the status screens, the reports,
// the lists) with its own store connection, so that a read that waits on the database (a slow plan, a
// lock, a database slowing down) holds this thread and never the server's event loop. The endpoint
// modules are the server's own, built here as there: the handler that runs is the same code.
import { randomBytes } from 'node:crypto'
import { parentPort, workerData } from 'node:worker_threads'
import { ApiTokenService } from '../auth/api-tokens'
import { LoginThrottle } from '../auth/login-throttle'
import { Principals } from '../auth/principals'
import { SecretBox } from '../auth/secret-box'
import { SessionService } from '../auth/sessions'
import { RefusedAgents } from '../collector/refused-agents'
import type { ApiEndpoint, PureReadRequest } from '../http/api'
import { usePostgresWorker } from '../store/postgres/sync-connection'
import { Store } from '../store/store'
import { HttpError } from '../web/http-error'
import { serveRequests, threadFailure } from '../request-thread'
import { apiEndpoints } from './endpoints'
import type { ReadFailure, ReadNotice, ReadThreadData } from './read-thread-messages'

const port = parentPort!
const data = workerData as ReadThreadData
usePostgresWorker(data.postgresWorker)
const store = new Store(data.database, undefined, {
  lockTimeoutMs: data.lockTimeoutMs,
  stallMs: data.stallMs,
  statementTimeoutMs: data.statementTimeoutMs,
  onSlow: { slowMs: data.slowMs, waited: (ms) => port.postMessage({ slowMs: ms } satisfies ReadNotice) }
})
const principals = new Principals(store.users)
// Only the pure reads are served here: the services the other endpoints act through are never called,
// and the secrets' key stays on the HTTP thread (this box, of a key of its own, opens nothing stored).
const endpoints = new Map<string, ApiEndpoint>()
for (const e of apiEndpoints({
  store,
  sessions: new SessionService(store.sessions),
  apiTokens: new ApiTokenService(store.apiTokens, principals),
  secrets: new SecretBox(randomBytes(32)),
  throttle: new LoginThrottle(),
  refusedAgents: new RefusedAgents()
})) {
  if (e.pureRead) endpoints.set(e.path, e)
}

function read({ path, version, params, principal }: PureReadRequest): unknown {
  const e = endpoints.get(path)
  if (!e) throw new Error(`${path} is not served by the read threads`)
  // What a pure read may use of its context (ApiEndpoint.pureRead).
  return e.handle({ params, version, principal } as Parameters<ApiEndpoint['handle']>[0])
}

/** An HttpError keeps its status and headers across (a 404, a bad argument); any other error its code. */
function failure(e: unknown): ReadFailure {
  const http = e instanceof HttpError ? { statusCode: e.statusCode, headers: e.headers, argument: e.argument } : undefined
  return { ...threadFailure(e), http }
}

// Only now may the HTTP thread close it by message (as the jobs' thread: jobs-worker.ts).
serveRequests(port, read, () => store.close(), failure)
