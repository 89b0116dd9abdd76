// The data folder holds what a local user must not read: session ids, password hashes, the key that seals
// agent credentials, the database and its backups. Only the server's own user may open them; folders and
// files made before this rule (755 and 644 under the usual umask) are narrowed at start. Windows keeps its
// ACLs (the user's profile folder is already private there).
import { chmodSync, existsSync, mkdirSync } from 'node:fs'

const POSIX = process.platform !== 'win32'

/**
 * Makes `dir` (and its parents) if missing, and narrows it to its owner. Returns why it could not be
 * narrowed (a folder of another user), for the caller to say: the server runs on all the same.
 */
export function privateFolder(dir: string): string | undefined {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (!POSIX) return undefined
  try {
    chmodSync(dir, 0o700)
    return undefined
  } catch (err) {
    return (err as Error).message
  }
}

/** Narrows each existing file to read and write by the owner only. */
export function privateFiles(...files: string[]): void {
  if (!POSIX) return
  for (const file of files) if (existsSync(file)) chmodSync(file, 0o600)
}
