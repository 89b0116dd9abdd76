// The server's output, appended to logs/server.log in the data directory. One previous file is kept
// (server.log.1) once the current one passes `maxBytes`, so logs never fill the disk.
import { createWriteStream, mkdirSync, renameSync, statSync, type WriteStream } from 'node:fs'
import { join } from 'node:path'

export const LOG_DIR = 'logs'

export function openServerLog(dataDir: string, maxBytes = 10 * 1024 * 1024): WriteStream {
  const dir = join(dataDir, LOG_DIR)
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'server.log')
  let size = 0
  try {
    size = statSync(file).size
  } catch {
    // No log yet.
  }
  if (size > maxBytes) renameSync(file, `${file}.1`)
  return createWriteStream(file, { flags: 'a' })
}
