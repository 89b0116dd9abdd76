// The text log format: pino's JSON record as one line "<ISO time> <LEVEL> <message>", with an error's
// stack after the message. Other fields (fastify's request ids, an access line's fields) stay in the
// JSON format (--log-format json); the message says what happened on its own.

/** A destination that writes each pino record to `target` as a text line. */
export function textLines(target: NodeJS.WritableStream): { write(record: string): void } {
  return { write: (record) => void target.write(textLine(record)) }
}

function textLine(record: string): string {
  const { time, level, msg, err } = JSON.parse(record) as {
    time: string
    level: string
    msg?: string
    err?: { stack?: string; message?: string }
  }
  const detail = err ? (msg ? ': ' : '') + (err.stack ?? err.message ?? '') : ''
  return `${time} ${level.toUpperCase().padEnd(5)} ${msg ?? ''}${detail}\n`
}
