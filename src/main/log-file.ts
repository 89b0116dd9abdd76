// The server's output, appended to logs/server.log in the data directory. One previous file is kept
// (server.log.1) once the current one passes `maxBytes`, so logs never fill the disk.
import { chmodSync, createWriteStream, existsSync, mkdirSync, renameSync, statSync, type WriteStream } from 'node:fs'
import { join } from 'node:path'

export const LOG_DIR = 'logs'

export function openServerLog(dataDir: string, maxBytes = 10 * 1024 * 1024): WriteStream {
  const dir = join(dataDir, LOG_DIR)
  // The log names users and addresses: the owner's only, as the rest of the data folder.
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const file = join(dir, 'server.log')
  let size = 0
  try {
    size = statSync(file).size
  } catch {
    // No log yet.
  }
  if (size > maxBytes) renameSync(file, `${file}.1`)
  if (process.platform !== 'win32') {
    chmodSync(dir, 0o700)
    for (const log of [file, `${file}.1`]) if (existsSync(log)) chmodSync(log, 0o600)
  }
  return createWriteStream(file, { flags: 'a', mode: 0o600 })
}
