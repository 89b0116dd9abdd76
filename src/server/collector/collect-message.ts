// What the collector does with the XML of admitted messages: parse, store. It runs on the ingest
// thread (see ingest-thread.ts), so it answers with plain outcomes that can cross threads, never a throw.
import { mayCollect, type Principal } from '../domain/permissions'
import { storageFailureCode } from '../store/storage-errors'
import { ReportRefused, type Ingest } from './ingest'
import type { MonitMessage } from '../monit/message'
import { defaultMessageLimits, MessageTooLarge, type MessageLimits } from '../monit/message-limits'
import { MessageParseError, parseMonitMessage } from '../monit/parse-message'

export interface CollectRequest {
  /** The body's XML, already gunzipped when the agent sent gzip. */
  xml: Uint8Array
  /** Who posted it, already authenticated and holding the collector permission somewhere. */
  principal: Principal
  nowMs: number
  /** The address the message came from, as the server saw it (ingest.ts: callBack); absent when unknown. */
  source?: string
}

export type CollectOutcome =
  /**
   * Committed; `seconds` is the parse + store time, its share of the commit included; `notice` is worth a
   * log line; `groupsChanged` when host-group memberships changed (the HTTP thread's permission caches).
   */
  | { kind: 'stored'; seconds: number; notice?: string; groupsChanged?: true }
  /** Answered `status` with {"error": error}; `warning` is worth a log line (a body that is no Monit message). */
  | { kind: 'refused'; status: number; error: string; warning?: string }
  /** The database cannot be written now (disk full: store/storage-errors.ts): answered 503, the agent keeps it queued. */
  | { kind: 'unavailable'; code: string; message: string }
  /** A fault of ours: answered 500, `detail` (a stack) is logged. */
  | { kind: 'failed'; detail: string }

/**
 * Most messages a batch takes. Most of the gain comes by 8 to 16 messages (a commit per message costs
 * about 0.15 ms); larger batches gather every request in flight, so that HTTP waits on storing and
 * storing on HTTP instead of overlapping. It also bounds how long a batch holds SQLite's write lock
 * from other writers (about 8 ms).
 */
export const MAX_BATCH = 16

/** A lost race for SQLite's write lock is tried again this many times before the batch gives up. */
const BEGIN_ATTEMPTS = 3

/** Where a batch stands: per message its outcome once known (none = still to store) and its seconds so far. */
interface Batch {
  requests: readonly CollectRequest[]
  messages: (MonitMessage | undefined)[]
  outcomes: (CollectOutcome | undefined)[]
  spent: number[]
  notices: (string | undefined)[]
  groupsChanged: boolean[]
}

/**
 * Stores messages that arrived together, in order: parse first, outside the write lock, then all of
 * them in one transaction with one commit. Should a message fail there (or the commit), nothing of
 * the batch is stored and each message is stored again in a transaction of its own, so that a bad one
 * costs only itself. An outcome says `stored` only once its commit is done.
 */
export function collectMessages(
  ingest: Ingest,
  requests: readonly CollectRequest[],
  limits: MessageLimits = defaultMessageLimits
): CollectOutcome[] {
  const batch: Batch = { requests, messages: [], outcomes: [], spent: [], notices: [], groupsChanged: [] }
  requests.forEach((request, i) => {
    const started = performance.now()
    try {
      const { xml } = request
      batch.messages[i] = parseMonitMessage(Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength), limits)
    } catch (err) {
      batch.outcomes[i] = notStored(err, request)
    }
    batch.spent[i] = secondsSince(started)
  })
  if (toStore(batch).length > 0) {
    try {
      storeTogether(ingest, batch)
    } catch (err) {
      // Storing them one by one would fail the same way, once per message.
      if (storageFailureCode(err) !== undefined) for (const i of toStore(batch)) batch.outcomes[i] = notStored(err, requests[i])
      else storeOneByOne(ingest, batch)
    }
  }
  return requests.map((_, i) => batch.outcomes[i] ?? { kind: 'failed', detail: 'message neither stored nor refused' })
}

function storeTogether(ingest: Ingest, batch: Batch): void {
  const pending = toStore(batch)
  let began = false
  let applySeconds = 0
  const applyAll = () => {
    began = true
    ingest.readHostsAhead(pending.map((i) => batch.messages[i]!.agent.id))
    for (const i of pending) {
      const started = performance.now()
      try {
        apply(ingest, batch, i)
      } catch (err) {
        // A refusal comes before the message writes anything: the others go on.
        if (!(err instanceof ReportRefused)) throw err
        batch.outcomes[i] = notStored(err, batch.requests[i])
      }
      const seconds = secondsSince(started)
      batch.spent[i] += seconds
      applySeconds += seconds
    }
  }
  for (let attempt = 1; ; attempt++) {
    const started = performance.now()
    try {
      ingest.together(applyAll)
      const stored = pending.filter((i) => batch.outcomes[i] === undefined)
      // What the batch cost beyond its messages (the commit) is shared among them.
      const share = Math.max(0, secondsSince(started) - applySeconds) / Math.max(1, stored.length)
      for (const i of stored) batch.outcomes[i] = storedOutcome(batch, i, batch.spent[i] + share)
      return
    } catch (err) {
      // SQLite can refuse BEGIN with SQLITE_BUSY without waiting out busy_timeout (WAL locking races
      // with the other connection); nothing ran yet, so trying again is safe.
      if (!began && isBusy(err) && attempt < BEGIN_ATTEMPTS) continue
      throw err
    }
  }
}

function storeOneByOne(ingest: Ingest, batch: Batch): void {
  for (const i of toStore(batch)) {
    const started = performance.now()
    try {
      apply(ingest, batch, i)
      batch.outcomes[i] = storedOutcome(batch, i, batch.spent[i] + secondsSince(started))
    } catch (err) {
      batch.outcomes[i] = notStored(err, batch.requests[i])
    }
  }
}

function apply(ingest: Ingest, batch: Batch, i: number): void {
  const { principal, nowMs, source } = batch.requests[i]
  const result = ingest.apply(batch.messages[i]!, nowMs, (hostId) => mayCollect(principal, hostId), source)
  batch.notices[i] = result.notice
  batch.groupsChanged[i] = result.groupsChanged
}

function storedOutcome(batch: Batch, i: number, seconds: number): CollectOutcome {
  return { kind: 'stored', seconds, notice: batch.notices[i], ...(batch.groupsChanged[i] ? { groupsChanged: true } : {}) }
}

/** Messages parsed and neither refused nor stored yet. */
const toStore = (batch: Batch): number[] =>
  batch.requests.flatMap((_, i) => (batch.messages[i] !== undefined && batch.outcomes[i] === undefined ? [i] : []))

const secondsSince = (started: number): number => (performance.now() - started) / 1000

const isBusy = (err: unknown): boolean => String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')

function notStored(err: unknown, request: CollectRequest): CollectOutcome {
  if (err instanceof MessageParseError) {
    return { kind: 'refused', status: 400, error: `not a valid Monit message: ${err.message}`, warning: err.message }
  }
  if (err instanceof MessageTooLarge)
    return { kind: 'refused', status: 413, error: `message too large: ${err.message}`, warning: err.message }
  if (err instanceof ReportRefused) {
    return { kind: 'refused', status: 403, error: `user ${request.principal.uname} may not report for this host` }
  }
  const code = storageFailureCode(err)
  if (code !== undefined) return { kind: 'unavailable', code, message: err instanceof Error ? err.message : String(err) }
  return { kind: 'failed', detail: err instanceof Error ? (err.stack ?? err.message) : String(err) }
}
