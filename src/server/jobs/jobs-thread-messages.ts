// What the server thread (jobs-thread.ts) and the jobs' thread (jobs-worker.ts) send each other.
import type { LiveChange } from '../../shared/live'
import type { Store } from '../store/store'
import type { SendResult } from '../alerting/channel'
import type { ThreadFailure } from '../request-thread'
import type { OutboxPassResult, RecordOutcome, SentNotification } from './alert-outbox-pass'

export interface JobsThreadData {
  /** The PostgreSQL URL. */
  database: string
  /** The PostgreSQL connection thread's script in the built server (see sync-connection.ts). */
  postgresWorker?: string
  /** The longest a statement waits for a lock (store.ts); absent: no limit but the statement's. */
  lockTimeoutMs?: number
  /** The alerts' links are made absolute on it (alert-outbox-pass.ts); absent: no alert passes are asked. */
  consoleUrl?: string
  /** How long finished notifications are kept; absent: the default. */
  alertKeepSec?: number
}

/** A run of one job's step: a slice of the history rollup, a pass of the heartbeat watchdog, a session sweep, a retention batch, a forecast slice, an alert outbox pass or the record of a send, a call of a repository's method. */
export type JobRequest =
  | { job: 'rollup'; now: number; budgetMs: number }
  | { job: 'session-sweep'; nowSec: number }
  | { job: 'retention'; nowSec: number }
  | { job: 'forecast'; now: number; afterId: number }
  | { job: 'alert-pass'; nowMs: number; sending: readonly number[] }
  | RepositoryCall
  | { job: 'alert-record'; notification: SentNotification; result: SendResult; nowMs: number }
  | {
      job: 'watchdog'
      nowMs: number
      intervalMs: number
      /** Why this instance's collector cannot store (CollectorStorage), or undefined. */
      collectorUnavailable: string | undefined
      /** This instance's run (server-run-log.ts): the others' held reports are asked on the thread. */
      runId: number | undefined
    }

/** What each request's run answers. */
export interface JobResults {
  /** Whether rollup work remains. */
  rollup: boolean
  /** How many hosts turned silent, and the live changes to publish (after their commit). */
  watchdog: { silent: number; changes: LiveChange[] }
  /** How many sessions ended. */
  'session-sweep': number
  /** Whether a backlog remains. */
  retention: boolean
  /** The last statistic id forecast, and whether the fleet is done. */
  forecast: { lastId: number; done: boolean }
  /** The pass's sends; its failure as the thread sends errors. */
  'alert-pass': Omit<OutboxPassResult, 'failure'> & { failure?: ThreadFailure }
  'alert-record': RecordOutcome
  /** What the repository's method returned. */
  call: unknown
}

/** The repositories' methods the server thread's own jobs call on the jobs' thread: their writes and small reads. */
export const THREAD_CALLS = {
  serverRuns: ['begin', 'alive', 'stop', 'reportsHeld'],
  pulledAgents: ['due', 'pinCallBack', 'polled', 'hostSnapshotUsec', 'remove']
} as const satisfies { [R in keyof Store]?: readonly (keyof Store[R])[] }

export type ThreadRepository = keyof typeof THREAD_CALLS
export type ThreadMethod<R extends ThreadRepository> = (typeof THREAD_CALLS)[R][number]

/** One call of a repository's method on the jobs' thread (jobs-thread.ts's `repository`). */
export interface RepositoryCall {
  job: 'call'
  repository: ThreadRepository
  method: string
  args: unknown[]
}

/** Some of a repository's methods, answered at once (the store here) or later (the jobs' thread). */
export type RepositoryCalls<T, K extends PropertyKey> = {
  [M in K]: M extends keyof T ? (T[M] extends (...args: infer A) => infer R ? (...args: A) => R | Promise<R> : never) : never
}
