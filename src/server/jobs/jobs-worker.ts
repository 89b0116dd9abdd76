// The jobs' thread entry (PostgreSQL): runs the history rollup's slices, the heartbeat watchdog's passes,
// the session sweep, the retention batches, the forecast slices, the alert outbox's passes and the server
// run log's and the pull job's repository calls with its own store connection, so that their statements,
// a round trip each, and their waits on locks or a slow database never hold up the server's event loop.
// The server thread schedules the runs (under the job lease) and publishes the live changes they send back.
import { parentPort, workerData } from 'node:worker_threads'
import type { LiveChange } from '../../shared/live'
import { SessionService } from '../auth/sessions'
import { forecastSlice } from '../history/forecaster'
import { Rollup } from '../history/rollup'
import { ChangeFeed } from '../live/change-feed'
import { usePostgresWorker } from '../store/postgres/sync-connection'
import { Store } from '../store/store'
import { serveRequests, threadFailure } from '../request-thread'
import { AlertOutboxPass } from './alert-outbox-pass'
import { pruneExpiredBatch } from './event-retention'
import { HeartbeatWatchdog } from './heartbeat-watchdog'
import { reportsHeldElsewhere } from './server-run-log'
import { THREAD_CALLS, type JobRequest, type JobResults, type JobsThreadData } from './jobs-thread-messages'

const port = parentPort!
const data = workerData as JobsThreadData
usePostgresWorker(data.postgresWorker)
const store = new Store(data.database, undefined, { lockTimeoutMs: data.lockTimeoutMs })
const rollup = new Rollup(store.history, store.sql)
// The live feed is the server thread's: this one only captures what a pass changed, to send it over.
const feed = new ChangeFeed(1)
let changes: LiveChange[] = []
feed.subscribe((envelope) => changes.push(envelope.change))
let watchdogRequest: Extract<JobRequest, { job: 'watchdog' }> | undefined
// This instance's collector, as the server thread sees it, or another instance's (asked here, off the event loop).
const collectors = {
  get unavailable() {
    const r = watchdogRequest
    return r && (r.collectorUnavailable ?? reportsHeldElsewhere(store.serverRuns, r.runId, r.nowMs))
  }
}
const watchdog = new HeartbeatWatchdog(store, feed, collectors)
const sessions = new SessionService(store.sessions, () => store.serverSettings.sessionTimeoutSec())
let alerts: AlertOutboxPass | undefined
/** Made on the first alert request: its state (the reminders' next look, what waits to be written) lives with the thread. */
function alertOutbox(): AlertOutboxPass {
  if (data.consoleUrl === undefined) throw new Error("the jobs' thread was started without the console's URL: it runs no alert passes")
  return (alerts ??= new AlertOutboxPass(store, data.consoleUrl, data.alertKeepSec))
}

function run(request: JobRequest): JobResults[JobRequest['job']] {
  switch (request.job) {
    case 'rollup':
      return rollup.slice(request.now, request.budgetMs)
    case 'watchdog': {
      watchdogRequest = request
      changes = []
      const silent = watchdog.pass(request.nowMs, request.intervalMs)
      return { silent, changes }
    }
    case 'session-sweep':
      return sessions.sweepExpired(request.nowSec)
    case 'retention':
      return pruneExpiredBatch(store, request.nowSec)
    case 'forecast':
      return forecastSlice(store, request.now, request.afterId)
    case 'alert-pass': {
      const { failure, ...pass } = alertOutbox().run(request.nowMs, request.sending)
      return { ...pass, failure: failure === undefined ? undefined : threadFailure(failure) }
    }
    case 'alert-record':
      return alertOutbox().record(request.notification, request.result, request.nowMs)
    case 'call': {
      const { repository, method, args } = request
      // Only the methods listed: the thread runs no other code it is named.
      if (!(THREAD_CALLS[repository] as readonly string[]).includes(method))
        throw new Error(`${repository}.${method} is not called on the jobs' thread`)
      const repo = store[repository] as unknown as Record<string, (...a: unknown[]) => unknown>
      return repo[method](...args)
    }
  }
}

// Only once its store is open may the server thread close it by message: closed while opening its store, it
// would leave the store's connection behind (a thread ended from outside does not close what its own threads hold).
serveRequests(port, run, () => store.close())
