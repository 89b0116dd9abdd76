// A SQLite database's footprint on disk: the main file plus its write-ahead log, which can grow large
// between checkpoints and so belongs in the figure.
import { statSync } from 'node:fs'

export function databaseBytes(file: string): number {
  return sizeOf(file) + sizeOf(`${file}-wal`)
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}
