/// <reference types="electron-vite/node" />
// The jobs' statements on a thread of their own (jobs-worker.ts), for PostgreSQL: the history rollup's
// slices, the heartbeat watchdog's passes, the session sweep, the retention batches, the forecast slices,
// the alert outbox's passes, and the server run log's and the pull job's repository calls. There every
// statement is a round trip, and one held by a lock or a slow database would hold the event loop with it.
// The thread starts with the first run and again after it ended (a store that cannot open fails that run:
// its job tries again after its interval). Runs are answered in the order asked; one waiting on the
// database delays the next, never the event loop.
import { join } from 'node:path'
import type { SendResult } from '../alerting/channel'
import { errorOf, RequestThread } from '../request-thread'
import { postgresWorkerScript } from '../store/postgres/sync-connection'
import { workerScriptFromSource } from '../worker-from-source'
import type { OutboxPassResult, RecordOutcome, SentNotification } from './alert-outbox-pass'
import {
  THREAD_CALLS,
  type JobRequest,
  type JobResults,
  type JobsThreadData,
  type RepositoryCalls,
  type ThreadMethod,
  type ThreadRepository
} from './jobs-thread-messages'
import type { Store } from '../store/store'

export class JobsThread {
  private readonly thread: RequestThread<JobRequest>

  constructor(data: JobsThreadData) {
    this.thread = new RequestThread({
      name: "the jobs' thread",
      // The built server ships the thread as its own bundle (`?modulePath`); from sources it is bundled on first use.
      script: async () =>
        __filename.endsWith('.ts')
          ? workerScriptFromSource(join(__dirname, 'jobs-worker.ts'))
          : (await import('./jobs-worker?modulePath')).default,
      workerData: { ...data, postgresWorker: postgresWorkerScript() } satisfies JobsThreadData
    })
  }

  /** One rollup slice at `now` (unix seconds) of at most about `budgetMs`; resolves true when work remains. */
  rollupSlice(now: number, budgetMs: number): Promise<boolean> {
    return this.run({ job: 'rollup', now, budgetMs }) as Promise<boolean>
  }

  /** One watchdog pass (see JobRequest); resolves with the live changes to publish. */
  watchdogPass(pass: Omit<Extract<JobRequest, { job: 'watchdog' }>, 'job'>): Promise<JobResults['watchdog']> {
    return this.run({ job: 'watchdog', ...pass }) as Promise<JobResults['watchdog']>
  }

  /** One session sweep at `nowSec`; resolves with how many sessions it ended. */
  sessionSweep(nowSec: number): Promise<number> {
    return this.run({ job: 'session-sweep', nowSec }) as Promise<number>
  }

  /** One retention batch at `nowSec`; resolves true while a backlog remains. */
  retentionBatch(nowSec: number): Promise<boolean> {
    return this.run({ job: 'retention', nowSec }) as Promise<boolean>
  }

  /** One forecast slice at `now` (unix seconds) of the series after statistic `afterId`. */
  forecastSlice(now: number, afterId: number): Promise<JobResults['forecast']> {
    return this.run({ job: 'forecast', now, afterId }) as Promise<JobResults['forecast']>
  }

  /** One alert outbox pass (alert-outbox-pass.ts); a grouping's failure comes back as an error with its code. */
  async alertPass(nowMs: number, sending: readonly number[]): Promise<OutboxPassResult> {
    const { failure, ...pass } = (await this.run({ job: 'alert-pass', nowMs, sending })) as JobResults['alert-pass']
    return failure === undefined ? pass : { ...pass, failure: errorOf(failure) }
  }

  /** Records a send's result (alert-outbox-pass.ts). */
  alertRecord(notification: SentNotification, result: SendResult, nowMs: number): Promise<RecordOutcome> {
    return this.run({ job: 'alert-record', notification, result, nowMs }) as Promise<RecordOutcome>
  }

  /** The methods of `repository` listed in THREAD_CALLS, each run on the thread. */
  repository<R extends ThreadRepository>(repository: R): RepositoryCalls<Store[R], ThreadMethod<R>> {
    const calls: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
    for (const method of THREAD_CALLS[repository]) calls[method] = (...args) => this.run({ job: 'call', repository, method, args })
    return calls as unknown as RepositoryCalls<Store[R], ThreadMethod<R>>
  }

  /** Ends the thread once its run in flight is done, or after a while (request-thread.ts). */
  close(): Promise<void> {
    return this.thread.close()
  }

  private run(request: JobRequest): Promise<unknown> {
    return this.thread.run(request)
  }
}
