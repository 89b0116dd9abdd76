/// <reference types="electron-vite/node" />
// The running server's M/Monit import (admin/import/mmonit/*): at most one at a time, on a thread of its
// own (mmonit-import-worker.ts) with its own store connection, as the ingest thread has. The server
// thread only keeps the status the console polls. The source's password never reaches the status, the
// log or an error message: each is scrubbed of it.
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { ImportStatus } from '../../shared/api/mmonit-import'
import type { Logger } from '../log'
import { postgresWorkerScript } from '../store/postgres/sync-connection'
import { workerScriptFromSource } from '../worker-from-source'
import type { FromImportThread, ImportFailureKind, ImportWorkerData } from './mmonit-import-messages'

/** The import thread's heap: the HTTP API source holds M/Monit's tables in memory; past this the thread dies, not the server. */
const IMPORT_HEAP_MB = 1024

export interface ImportJobRequest {
  from: string
  since?: number
  history: boolean
  dryRun: boolean
  merge: boolean
}

/** Where the import writes: the server's own store and data folder key. */
export interface ImportTarget {
  database: string
  keyFile: string
}

/** The HTTP status a failure answers with: what the administrator can do about it (a remote source's failure: 502). */
const FAILURE_STATUS: Record<ImportFailureKind, number> = {
  'not-empty': 409,
  import: 422,
  source: 422,
  cancelled: 409,
  other: 500
}

export class ImportBusyError extends Error {}

const IDLE: ImportStatus = {
  state: 'idle',
  source: null,
  dryRun: false,
  merge: false,
  startedBy: null,
  startedAt: null,
  step: null,
  stepIndex: 0,
  stepCount: 0,
  rows: 0,
  expected: 0,
  etaSeconds: null,
  report: null,
  error: null,
  errorStatus: null
}

export class MMonitImportJob {
  private current: ImportStatus = IDLE
  private worker: Worker | undefined
  private cancelFlag: Int32Array | undefined
  /** When the current step began (ms): its pace gives the ETA. */
  private stepStarted = 0
  /** Told when the running import has claimed its target, finished or failed. */
  private settled: (() => void) | undefined
  /** The running import has begun its steps, which write (a dry run has none). */
  private wrote = false
  /** A database server or M/Monit's API rather than a file: its failures are the upstream's (502). */
  private remote = false

  constructor(
    private readonly target: ImportTarget,
    private readonly log: Logger,
    /** After an import that wrote: what the server keeps in memory of users, roles and groups is read again. */
    private readonly onImported: () => void,
    private readonly now: () => number = Date.now
  ) {}

  status(): ImportStatus {
    const s = this.current
    if (s.state !== 'running' || s.rows === 0 || s.expected === 0) return s
    const elapsed = (this.now() - this.stepStarted) / 1000
    return { ...s, etaSeconds: Math.max(0, Math.round((elapsed / s.rows) * (s.expected - s.rows))) }
  }

  /**
   * Starts an import and resolves once it has begun its steps, ended, or `settleMs` passed: the caller
   * answers with the status then, so that a refused source or target is told at once.
   */
  async start(request: ImportJobRequest, startedBy: string, settleMs: number): Promise<ImportStatus> {
    if (this.current.state === 'running')
      throw new ImportBusyError(`an import from ${this.current.source} is running: wait for it or cancel it`)
    const shown = withoutPassword(request.from)
    const scrub = scrubber(request.from)
    this.remote = !request.from.startsWith('sqlite:')
    this.wrote = false
    this.current = {
      ...IDLE,
      state: 'running',
      source: shown,
      dryRun: request.dryRun,
      merge: request.merge,
      startedBy,
      startedAt: Math.floor(this.now() / 1000)
    }
    const cancel = new SharedArrayBuffer(4)
    this.cancelFlag = new Int32Array(cancel)
    const data: ImportWorkerData = {
      ...request,
      to: this.target.database,
      keyFile: this.target.keyFile,
      postgresWorker: postgresWorkerScript(),
      cancel
    }
    this.log.info(`M/Monit import from ${shown} started by ${startedBy}${request.dryRun ? ' (dry run)' : ''}`)
    const began = new Promise<void>((resolve) => (this.settled = resolve))
    try {
      this.worker = await newWorker(data)
    } catch (e) {
      this.fail('other', scrub(`the import thread did not start: ${(e as Error).message}`))
      return this.status()
    }
    const worker = this.worker
    worker.on('message', (message: FromImportThread) => this.receive(message, scrub))
    worker.on('error', (e) => this.worker === worker && this.fail('other', scrub(e.message)))
    worker.on('exit', () => {
      // A thread ended on its result exits later, maybe while the next import runs.
      if (this.worker !== worker) return
      this.worker = undefined
      this.fail('other', 'the import thread stopped before the import ended')
    })
    let timer: NodeJS.Timeout | undefined
    await Promise.race([began, new Promise<void>((resolve) => (timer = setTimeout(resolve, settleMs)))])
    clearTimeout(timer)
    return this.status()
  }

  /**
   * Stops the running import; false when none runs. Before its first step (reading the source, counting,
   * a dry run) nothing has been written: the thread is ended at once, whatever the source is waiting
   * for. Once the steps write, it stops after its current batch.
   */
  cancel(): boolean {
    if (this.current.state !== 'running' || !this.cancelFlag) return false
    if (this.current.step === null) this.fail('cancelled', 'the import was cancelled before it wrote anything')
    else Atomics.store(this.cancelFlag, 0, 1)
    return true
  }

  /** Server shutdown: the import stops where it is (each batch is its own transaction; a re-run resumes). */
  async close(): Promise<void> {
    await this.worker?.terminate()
  }

  private receive(message: FromImportThread, scrub: (text: string) => string): void {
    if (message.type === 'step') {
      this.wrote = true
      this.stepStarted = this.now()
      this.current = {
        ...this.current,
        step: message.name,
        stepIndex: message.index,
        stepCount: message.count,
        rows: 0,
        expected: message.expected
      }
      this.settle()
    } else if (message.type === 'rows') this.current = { ...this.current, rows: message.rows }
    else if (message.type === 'done') {
      const report = JSON.parse(scrub(JSON.stringify(message.report))) as ImportStatus['report']
      this.current = { ...this.current, state: 'done', step: null, etaSeconds: null, report }
      this.log.info(`M/Monit import from ${this.current.source} ${message.report.dryRun ? 'counted (dry run)' : 'done'}`)
      this.finish()
    } else this.fail(message.kind, scrub(message.message))
  }

  private fail(kind: ImportFailureKind, message: string): void {
    if (this.current.state !== 'running') return
    const state = kind === 'cancelled' ? 'cancelled' : 'failed'
    const errorStatus = kind === 'source' && this.remote ? 502 : FAILURE_STATUS[kind]
    this.current = { ...this.current, state, etaSeconds: null, error: message, errorStatus }
    this.log.warn(`M/Monit import from ${this.current.source} ${state}: ${message}`)
    this.finish()
  }

  private finish(): void {
    // Done, failed or cancelled halfway: what was written so far is in the store either way.
    if (this.wrote) this.onImported()
    this.settle()
    const worker = this.worker
    this.worker = undefined
    void worker?.terminate()
  }

  private settle(): void {
    this.settled?.()
    this.settled = undefined
  }
}

/** The source as shown: a server URL without its password (the user name stays: it tells which account read). */
export function withoutPassword(from: string): string {
  if (from.startsWith('sqlite:')) return from
  try {
    const url = new URL(from)
    if (url.password === '') return from
    url.password = ''
    return url.href
  } catch {
    return from.replace(/\/\/([^/@:]*)(:[^/@]*)?@/, '//$1@')
  }
}

/** Removes the source's password, as written and percent-decoded, from any text the import produced. */
function scrubber(from: string): (text: string) => string {
  let secrets: string[] = []
  try {
    const password = new URL(from).password
    if (password !== '') secrets = [password, decodeURIComponent(password)]
  } catch {
    const written = /\/\/[^/@:]*:([^/@]*)@/.exec(from)?.[1]
    if (written) secrets = [written]
  }
  return (text) => secrets.reduce((t, secret) => t.split(secret).join('***'), text)
}

/** The built server ships the thread as its own bundle (`?modulePath`); from sources it is bundled on first use. */
async function newWorker(data: ImportWorkerData): Promise<Worker> {
  const script = __filename.endsWith('.ts')
    ? workerScriptFromSource(join(__dirname, 'mmonit-import-worker.ts'))
    : (await import('./mmonit-import-worker?modulePath')).default
  return new Worker(script, { workerData: data, resourceLimits: { maxOldGenerationSizeMb: IMPORT_HEAP_MB } })
}
