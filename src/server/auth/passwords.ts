// Passwords from clear text to what the store keeps, and checked at login. A new password gets a scrypt
// hash, a fresh random token (what M/Monit's API hands out as the password "hash" and takes back to mean
// "unchanged": no digest of the password leaves the server) and its unsafe flag. A login that matches
// a legacy or cheaper hash replaces it, and refreshes the flag. The clear text goes no further.
import { randomBytes } from 'node:crypto'
import type { Credentials, StoredPassword, UserRepository } from '../store/users'
import { hashPassword, hashPasswordSync, md5Hash, needsRehash, verifyPassword } from './password-hash'
import { isWeakPassword } from './weak-passwords'

export async function newPassword(password: string, uname: string): Promise<StoredPassword> {
  return stored(await hashPassword(password), password, uname)
}

/** newPassword blocking the thread: for the command line's accounts at start-up. */
export function newPasswordSync(password: string, uname: string): StoredPassword {
  return stored(hashPasswordSync(password), password, uname)
}

/**
 * A password known only by M/Monit's unsalted MD5 (`users.password` of an M/Monit database, in hex):
 * verified once at the user's next login, then rehashed. Unsafe until then. Undefined for no MD5.
 */
export function importedPassword(md5Hex: string): StoredPassword | undefined {
  const hash = md5Hash(md5Hex)
  return hash === undefined ? undefined : { hash, token: newToken(), unsafe: true }
}

/**
 * True when `password` is the user's. A match replaces a legacy or cheaper hash (so the hash after a
 * login is always scrypt: no longer unsafe for its storage) and refreshes the weak-password flag.
 */
export async function checkPassword(users: UserRepository, user: Credentials, password: string): Promise<boolean> {
  if (!(await verifyPassword(password, user.password_hash))) return false
  const hash = needsRehash(user.password_hash) ? await hashPassword(password) : user.password_hash
  refresh(users, user, hash, password)
  return true
}

function refresh(users: UserRepository, user: Credentials, hash: string, password: string): void {
  const unsafe = isWeakPassword(password, user.uname)
  if (hash === user.password_hash && unsafe === (user.password_unsafe === 1)) return
  users.refreshPassword(user.id, user.password_hash, { hash, unsafe })
}

function stored(hash: string, password: string, uname: string): StoredPassword {
  return { hash, token: newToken(), unsafe: isWeakPassword(password, uname) }
}

function newToken(): string {
  return randomBytes(16).toString('hex')
}
