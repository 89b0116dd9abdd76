// What the collector does with one admitted message: gunzip, parse, store. It runs on the ingest
// thread (see ingest-thread.ts), so it answers with a plain outcome that can cross threads, never a throw.
import { gunzipSync } from 'node:zlib'
import { mayCollect, type Principal } from '../domain/permissions'
import type { LiveChange } from '../../shared/live'
import { ReportRefused, type Ingest } from './ingest'
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
  /** Stored in one transaction; `seconds` is the decode + parse + store time, `changes` what to publish live. */
  | { kind: 'stored'; seconds: number; changes: LiveChange[] }
  /** Answered `status` with {"error": error}; `warning` is worth a log line (a body that is no Monit message). */
  | { kind: 'refused'; status: number; error: string; warning?: string }
  /** A fault of ours: answered 500, `detail` (a stack) is logged. */
  | { kind: 'failed'; detail: string }

class Refusal extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
  }
}

/** Stores the message; `changes` are what the ingest published while storing it. */
export function collectMessage(ingest: Ingest, limits: CollectorLimits, request: CollectRequest,
  changes: () => LiveChange[]): CollectOutcome {
  const started = performance.now()
  try {
    const xml = decodeBody(request.body, request.contentEncoding, limits.maxXmlBytes)
    const message = parseMonitMessage(xml)
    const { principal } = request
    ingest.apply(message, request.nowMs, (hostId) => mayCollect(principal, hostId))
    // Decode, parse and store: the work this server does per message, without network time.
    return { kind: 'stored', seconds: (performance.now() - started) / 1000, changes: changes() }
  } catch (err) {
    if (err instanceof Refusal) return { kind: 'refused', status: err.status, error: err.message }
    if (err instanceof MessageParseError) {
      return { kind: 'refused', status: 400, error: `not a valid Monit message: ${err.message}`, warning: err.message }
    }
    if (err instanceof ReportRefused) {
      return { kind: 'refused', status: 403, error: `user ${request.principal.uname} may not report for this host` }
    }
    return { kind: 'failed', detail: err instanceof Error ? (err.stack ?? err.message) : String(err) }
  }
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
