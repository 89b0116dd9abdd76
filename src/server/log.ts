// Plain one-line log records on stdout/stderr. Never pass request bodies or credentials here.
export interface Logger {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

export function createLogger(out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Logger {
  const line = (stream: NodeJS.WritableStream, level: string, message: string) =>
    stream.write(`${new Date().toISOString()} ${level} ${message}\n`)
  return {
    info: (m) => line(out, 'INFO ', m),
    warn: (m) => line(err, 'WARN ', m),
    error: (m) => line(err, 'ERROR', m)
  }
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} }

/**
 * Logs a failure that repeats (a job on a full disk fails on every run) once per kind, and one line
 * when it works again; a log that grows on every retry would fill the disk further and hide the rest.
 */
export class RepeatedFailureLog {
  private readonly seen = new Set<string>()

  constructor(private readonly log: Logger, private readonly what: string) {}

  /** True when this kind of failure was not logged yet since the last success. */
  failed(err: unknown, retry: string): boolean {
    const kind = failureKind(err)
    if (this.seen.has(kind)) return false
    this.seen.add(kind)
    // A coded error (SQLite, system) says what happened; anything else is a bug, whose stack says where.
    const detail = typeof (err as { code?: unknown } | null)?.code === 'string' || !(err instanceof Error)
      ? describe(err) : (err.stack ?? describe(err))
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
  const message = err instanceof Error ? err.message : (err as { message?: unknown } | null)?.message ?? String(err)
  return typeof code === 'string' ? `${code}: ${String(message)}` : String(message)
}
