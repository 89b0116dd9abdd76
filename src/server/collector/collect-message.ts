// What the collector does with admitted messages: gunzip, parse, store. It runs on the ingest
// thread (see ingest-thread.ts), so it answers with plain outcomes that can cross threads, never a throw.
import { gunzipSync } from 'node:zlib'
import { mayCollect, type Principal } from '../domain/permissions'
import { ReportRefused, type Ingest } from './ingest'
import type { MonitMessage } from './message'
import { MessageParseError, parseMonitMessage } from './parse-message'

export interface CollectorLimits {
  /** Largest body accepted on the wire (compressed or not). */
  maxBodyBytes: number
  /** Largest XML document after gunzip: the bound against gzip bombs. */
  maxXmlBytes: number
}

export const defaultCollectorLimits: CollectorLimits = { maxBodyBytes: 4 * 1024 * 1024, maxXmlBytes: 32 * 1024 * 1024 }

export interface CollectRequest {
  /** The body as received, gzip or not. */
  body: Uint8Array
  contentEncoding: string | undefined
  /** Who posted it, already authenticated and holding the collector permission somewhere. */
  principal: Principal
  nowMs: number
}

export type CollectOutcome =
  /** Committed; `seconds` is the decode + parse + store time, its share of the commit included. */
  | { kind: 'stored'; seconds: number }
  /** Answered `status` with {"error": error}; `warning` is worth a log line (a body that is no Monit message). */
  | { kind: 'refused'; status: number; error: string; warning?: string }
  /** A fault of ours: answered 500, `detail` (a stack) is logged. */
  | { kind: 'failed'; detail: string }

class Refusal extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
  }
}

/** A lost race for SQLite's write lock is tried again this many times before the messages fail. */
const BEGIN_ATTEMPTS = 3

/**
 * Stores messages that arrived together, in order, in one transaction: gunzip and parse first, outside
 * the write lock, then each message in its own savepoint (a bad one costs only itself) and one commit
 * for all. An outcome says `stored` only once that commit is done.
 */
export function collectMessages(ingest: Ingest, limits: CollectorLimits, requests: readonly CollectRequest[]): CollectOutcome[] {
  /** Refusals and faults as they happen; a message still undefined here at the commit is stored. */
  const outcomes: (CollectOutcome | undefined)[] = requests.map(() => undefined)
  /** Seconds each message took so far. */
  const spent = requests.map(() => 0)
  const messages = requests.map((request, i): MonitMessage | undefined => {
    const started = performance.now()
    try {
      return parseMonitMessage(decodeBody(request.body, request.contentEncoding, limits.maxXmlBytes))
    } catch (err) {
      outcomes[i] = notStored(err, request)
      return undefined
    } finally {
      spent[i] = (performance.now() - started) / 1000
    }
  })
  let began = false
  let applySeconds = 0
  const applyEach = () => {
    began = true
    messages.forEach((message, i) => {
      if (message === undefined || outcomes[i] !== undefined) return
      const started = performance.now()
      const { principal, nowMs } = requests[i]
      try {
        ingest.apply(message, nowMs, (hostId) => mayCollect(principal, hostId))
      } catch (err) {
        outcomes[i] = notStored(err, requests[i])
      }
      const seconds = (performance.now() - started) / 1000
      spent[i] += seconds
      applySeconds += seconds
    })
  }
  if (messages.some((m, i) => m !== undefined && outcomes[i] === undefined)) {
    for (let attempt = 1; ; attempt++) {
      const started = performance.now()
      try {
        ingest.together(applyEach)
        // What the batch cost beyond its messages (the commit) is shared among them.
        const storing = outcomes.filter((o) => o === undefined).length
        const share = Math.max(0, (performance.now() - started) / 1000 - applySeconds) / Math.max(1, storing)
        return outcomes.map((o, i) => o ?? { kind: 'stored', seconds: spent[i] + share })
      } catch (err) {
        // SQLite can refuse BEGIN with SQLITE_BUSY without waiting out busy_timeout (WAL locking races
        // with the other connection); nothing ran yet, so trying again is safe.
        if (!began && isBusy(err) && attempt < BEGIN_ATTEMPTS) continue
        // Nothing of this transaction is stored: whatever was about to be stored failed.
        const failed = faultOf(err)
        return outcomes.map((o) => o ?? failed)
      }
    }
  }
  // Nothing to store: every message was refused before the store.
  return outcomes as CollectOutcome[]
}

const isBusy = (err: unknown): boolean => String((err as { code?: unknown }).code).startsWith('SQLITE_BUSY')

function notStored(err: unknown, request: CollectRequest): CollectOutcome {
  if (err instanceof Refusal) return { kind: 'refused', status: err.status, error: err.message }
  if (err instanceof MessageParseError) {
    return { kind: 'refused', status: 400, error: `not a valid Monit message: ${err.message}`, warning: err.message }
  }
  if (err instanceof ReportRefused) {
    return { kind: 'refused', status: 403, error: `user ${request.principal.uname} may not report for this host` }
  }
  return faultOf(err)
}

function faultOf(err: unknown): CollectOutcome {
  return { kind: 'failed', detail: err instanceof Error ? (err.stack ?? err.message) : String(err) }
}

function decodeBody(body: Uint8Array, encoding: string | undefined, maxXmlBytes: number): Buffer {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  const coding = (encoding ?? 'identity').trim().toLowerCase()
  if (coding === 'identity' || coding === '') return bytes
  if (coding !== 'gzip' && coding !== 'x-gzip') throw new Refusal(415, `unsupported Content-Encoding: ${coding}`)
  try {
    return gunzipSync(bytes, { maxOutputLength: maxXmlBytes })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new Refusal(413, `decompressed body exceeds ${maxXmlBytes} bytes`)
    }
    throw new Refusal(400, `body is not valid gzip data: ${(err as Error).message}`)
  }
}
