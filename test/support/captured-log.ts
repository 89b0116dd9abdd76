// A real server logger (src/server/log.ts) whose stdout and stderr lines the test reads.
import { Writable } from 'node:stream'
import { createLogger, type LogOptions, type ServerLogger } from '../../src/server/log'

export interface CapturedLog {
  log: ServerLogger
  /** The lines written to stdout so far. */
  out(): string[]
  /** The lines written to stderr so far. */
  err(): string[]
}

export function capturedLog(options: Omit<LogOptions, 'out' | 'err'> = {}): CapturedLog {
  const out = lineSink()
  const err = lineSink()
  return { log: createLogger({ ...options, out: out.stream, err: err.stream }), out: out.lines, err: err.lines }
}

function lineSink() {
  const chunks: string[] = []
  const stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      chunks.push(chunk.toString())
      done()
    }
  })
  return { stream, lines: () => chunks.join('').split('\n').filter(Boolean) }
}
