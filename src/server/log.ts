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
