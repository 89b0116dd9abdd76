// Declares a host's heartbeat dead after `skew × poll` seconds without a message, records the
// transition as an event and opens a host down-time interval (closed by the next message).
import { EventRecorder } from '../events/event-recorder'
import { heartbeatLostEvent } from '../events/heartbeat-events'
import { heartbeatDeadlineMs, silenceStart } from '../domain/heartbeat'
import { nextHostState } from '../domain/host-transition'
import { eventChange } from '../live/changes'
import type { ChangeFeed } from '../live/change-feed'
import type { LiveChange } from '../../shared/live'
import type { HostRow } from '../store/hosts'
import type { Store } from '../store/store'
import type { JobsThread } from './jobs-thread'
import { PeriodicJob, type JobReporting } from './periodic-job'

const DEFAULT_INTERVAL_MS = 500
/** Passes further apart than this many intervals mean the watchdog was not watching (see pass). */
const WATCHING_GAP_INTERVALS = 4
/** How long it holds its judgement at most while the collector cannot store (see pass): past it, a
 *  database that serves the watchdog but never an agent (every agent gone) still gets its hosts judged. */
const MAX_HOLD_MS = 10 * 60_000

/** Whether the collector can store what agents send (metrics/storage-health.ts): undefined while it can. */
export interface CollectorStorage {
  readonly unavailable: string | undefined
}

/** The watchdog's passes, on this thread (HeartbeatWatchdog) or on the jobs' thread (watchdogOnThread). */
export interface WatchdogJob {
  start(intervalMs: number | undefined, reporting: JobReporting): void
  stop(): void
}

/**
 * The watchdog whose passes run on the jobs' thread (PostgreSQL: jobs-thread.ts), scheduled here under the
 * lease; the live changes a pass made are published here, after its commit. It holds its judgement while
 * this instance's collector cannot store, or another's (asked on the thread, for run `runId()`).
 */
export function watchdogOnThread(
  thread: JobsThread,
  feed: ChangeFeed,
  storage: CollectorStorage,
  runId: () => number | undefined
): WatchdogJob {
  let job: PeriodicJob<Promise<void>> | undefined
  return {
    start(intervalMs = DEFAULT_INTERVAL_MS, reporting) {
      job ??= new PeriodicJob({
        name: 'heartbeat watchdog',
        intervalMs,
        run: async () => {
          const pass = { nowMs: Date.now(), intervalMs, collectorUnavailable: storage.unavailable, runId: runId() }
          feed.publishAll((await thread.watchdogPass(pass)).changes)
        },
        ...reporting
      })
      job.start()
    },
    stop() {
      job?.stop()
      job = undefined
    }
  }
}

export class HeartbeatWatchdog implements WatchdogJob {
  private job: PeriodicJob | undefined
  private readonly events: EventRecorder
  private lastPassMs: number | undefined
  /** Since when it holds its judgement, while the collector cannot store. */
  private heldSinceMs: number | undefined
  /** The hold lasted its longest: no other until the collector stores again. */
  private holdSpent = false

  constructor(
    private readonly store: Store,
    private readonly feed?: ChangeFeed,
    private readonly storage?: CollectorStorage
  ) {
    this.events = new EventRecorder(store)
  }

  start(intervalMs = DEFAULT_INTERVAL_MS, reporting: JobReporting): void {
    this.job ??= new PeriodicJob({
      name: 'heartbeat watchdog',
      intervalMs,
      run: () => void this.pass(Date.now(), intervalMs),
      ...reporting
    })
    this.job.start()
  }

  stop(): void {
    this.job?.stop()
    this.job = undefined
  }

  /**
   * One pass of the job. The first in this process, or the first after passes stopped for a while, restarts
   * the deadlines before it: an agent's last message may be older than its deadline only because nothing
   * could store its messages meanwhile — this server was not running (issue 12), the database was out of
   * reach or full (the collector answered 503), the job lease was with an instance that died, the machine
   * slept — which is not the agent's silence. So is the time the collector could not store (answering
   * 503) though this job's own statements work again: the ingest's connection may come back later than
   * this thread's. No host is judged then, and the deadlines restart once the collector stores again
   * (at most MAX_HOLD_MS later).
   */
  pass(nowMs: number, intervalMs: number): number {
    if (this.storage?.unavailable === undefined) this.holdSpent = false
    else if (!this.holdSpent) {
      if (nowMs - (this.heldSinceMs ??= nowMs) < MAX_HOLD_MS) {
        this.lastPassMs = nowMs
        return 0
      }
      this.holdSpent = true
    }
    const started = Date.now()
    const held = this.heldSinceMs !== undefined
    this.heldSinceMs = undefined
    if (held || this.lastPassMs === undefined || nowMs - this.lastPassMs > WATCHING_GAP_INTERVALS * intervalMs) this.restartDeadlines(nowMs)
    const silent = this.check(nowMs)
    // When this pass ended: a long pass (many hosts turning silent at once) was watching, not a gap.
    this.lastPassMs = nowMs + (Date.now() - started)
    return silent
  }

  /**
   * Every watched host gets a full skew × poll from `nowMs`; an agent that is really gone is still caught,
   * one deadline later.
   */
  restartDeadlines(nowMs: number): void {
    // A statement per poll cycle and skew, not per host: 10,000 hosts' updates one by one held the HTTP
    // thread for seconds on PostgreSQL, long enough to look like a gap in watching and start over.
    // Repeatable: its bulk updates lock hosts in the table's order, another instance's collector batch in
    // id order, and PostgreSQL may end one of them as a deadlock.
    this.store.repeatableTransaction(() => {
      for (const { poll, skew } of this.store.hosts.watchedCycles()) {
        this.store.hosts.setWatchedDeadline(poll, skew, heartbeatDeadlineMs(nowMs, poll, skew))
      }
    })
  }

  /** Marks every host whose deadline passed by `nowMs`; returns how many turned silent. */
  check(nowMs: number): number {
    const due = this.store.hosts.silentSince(nowMs)
    for (const host of due) {
      // Published after the commit: subscribers must never see a change that was rolled back.
      const changes = this.store.transaction(() => this.markSilent(host, nowMs))
      this.feed?.publishAll(changes)
    }
    return due.length
  }

  private markSilent(host: HostRow, nowMs: number): LiveChange[] {
    const state = nextHostState(host, { kind: 'silence' })
    const { led, status_text: status } = state
    this.store.hosts.update(host.id, state)
    const lost = heartbeatLostEvent(nowMs, Math.floor(nowMs / 1000) - host.last_modified)
    const eventId = this.events.record(host.id, lost)
    this.store.intervals.open(host.id, null, Math.min(silenceStart(host.last_modified, host.poll), Math.floor(nowMs / 1000)))
    const { id: hostId, hostname } = host
    const changes: LiveChange[] = [{ kind: 'heartbeat', hostId, hostname, alive: false, led, status }]
    if (eventId !== undefined) changes.push(eventChange(hostId, hostname, eventId, lost))
    if (led !== host.led || status !== host.status_text) changes.push({ kind: 'host-changed', hostId, hostname, led, status })
    return changes
  }
}
