// Logging through pino, fastify's own logger: one text line per record by default, JSON on request
// (--log-format json), warnings and errors on stderr. Never pass request bodies or credentials here;
// the few fields that could carry them are redacted all the same.
import pino from 'pino'
import { textLines } from './log-line'

/** What the server's parts log through: a message at a level. */
export interface Logger {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

/** The whole logger: what startServer and fastify take. */
export type ServerLogger = pino.Logger

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
export const LOG_FORMATS = ['text', 'json'] as const
export type LogFormat = (typeof LOG_FORMATS)[number]

export interface LogOptions {
  /** Default info. */
  level?: LogLevel
  /** Default text. */
  format?: LogFormat
  out?: NodeJS.WritableStream
  err?: NodeJS.WritableStream
}

const REDACTED = [
  'password',
  '*.password',
  'body',
  '*.body',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["set-cookie"]'
]

export function createLogger({
  level = 'info',
  format = 'text',
  out = process.stdout,
  err = process.stderr
}: LogOptions = {}): ServerLogger {
  const destination = format === 'text' ? textLines : (stream: NodeJS.WritableStream) => stream
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED, censor: '[redacted]' }
    },
    pino.multistream(
      [
        { level: 'trace', stream: destination(out) },
        { level: 'warn', stream: destination(err) }
      ],
      { dedupe: true }
    )
  )
}

export const silentLogger: ServerLogger = pino({ level: 'silent' })

/**
 * Logs a failure that repeats (a job on a full disk fails on every run) once per kind, and one line
 * when it works again; a log that grows on every retry would fill the disk further and hide the rest.
 */
export class RepeatedFailureLog {
  private readonly seen = new Set<string>()

  constructor(
    private readonly log: Logger,
    private readonly what: string
  ) {}

  /** True when this kind of failure (by default its code, else its message) was not logged yet since the last success. */
  failed(err: unknown, retry: string, kind = failureKind(err)): boolean {
    if (this.seen.has(kind)) return false
    this.seen.add(kind)
    // A coded error (SQLite, system) says what happened; anything else is a bug, whose stack says where.
    const detail =
      typeof (err as { code?: unknown } | null)?.code === 'string' || !(err instanceof Error) ? describe(err) : (err.stack ?? describe(err))
    this.log.error(`${this.what} failed: ${detail}; ${retry} (logged once until it works again)`)
    return true
  }

  succeeded(): void {
    if (this.seen.size === 0) return
    this.seen.clear()
    this.log.info(`${this.what} works again`)
  }
}

function failureKind(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code === 'string') return code
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err)
}

function describe(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code
  const message = err instanceof Error ? err.message : ((err as { message?: unknown } | null)?.message ?? String(err))
  return typeof code === 'string' ? `${code}: ${String(message)}` : String(message)
}
