// Password digests as the spec stores them: a salted SHA256 digest (api/2), plus the MD5 hash that
// api/1 returns and compares on update. Verification uses the salted digest only.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { PasswordDigests } from '../store/users'

export function digestPassword(password: string, salt = randomBytes(16).toString('hex')): PasswordDigests {
  return { salt, sha256: sha256(salt + password), md5: createHash('md5').update(password).digest('hex') }
}

export function verifyPassword(password: string, stored: { salt: string; sha256: string }): boolean {
  const actual = Buffer.from(sha256(stored.salt + password), 'hex')
  const expected = Buffer.from(stored.sha256, 'hex')
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** The digests of a new password, or undefined when it is left unchanged. */
export function digestNewPassword(password: string | undefined): PasswordDigests | undefined {
  return password === undefined ? undefined : digestPassword(password)
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
