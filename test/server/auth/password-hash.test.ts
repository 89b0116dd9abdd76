// Stored password hashes: scrypt at the real cost, the legacy digests a migration or an M/Monit import
// leaves (verified, never made), and which hashes a login replaces.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_SCRYPT_COST,
  hashPassword,
  hashPasswordSync,
  md5Hash,
  needsRehash,
  useScryptCost,
  verifyPassword
} from '../../../src/server/auth/password-hash'

const CHEAP = { N: 16, r: 8, p: 1 }
const hex = (algorithm: string, text: string) => createHash(algorithm).update(text).digest('hex')

describe('scrypt', () => {
  it('at the real cost: N=2^15, r=8, p=1 in the string, a 16-byte salt, checked both ways', async () => {
    useScryptCost(DEFAULT_SCRYPT_COST)
    const hash = await hashPassword('correct horse')
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/)
    expect(await verifyPassword('correct horse', hash)).toBe(true)
    expect(await verifyPassword('correct horsf', hash)).toBe(false)
    expect(needsRehash(hash)).toBe(false)
  })

  it('salts every hash: one password, two hashes, each verified; a wrong one refused', async () => {
    useScryptCost(CHEAP)
    const [a, b] = [await hashPassword('same-password'), hashPasswordSync('same-password')]
    expect(a).not.toBe(b)
    for (const hash of [a, b]) {
      expect(await verifyPassword('same-password', hash)).toBe(true)
      expect(await verifyPassword('same-password', hash)).toBe(true)
      expect(await verifyPassword('Same-password', hash)).toBe(false)
    }
  })

  it('is rehashed when cheaper than the cost new hashes get, in any of N, r, p', () => {
    useScryptCost({ N: 32, r: 8, p: 2 })
    expect(needsRehash('scrypt$32$8$2$c2FsdA==$a2V5')).toBe(false)
    for (const cheaper of ['scrypt$16$8$2$c2FsdA==$a2V5', 'scrypt$32$4$2$c2FsdA==$a2V5', 'scrypt$32$8$1$c2FsdA==$a2V5']) {
      expect(needsRehash(cheaper)).toBe(true)
    }
  })
})

describe('legacy hashes', () => {
  it('sha256$salt$hex (Overseer before migration 011): verified, and always rehashed', async () => {
    const stored = `sha256$0123abcd$${hex('sha256', '0123abcd' + 'old-secret')}`
    expect(await verifyPassword('old-secret', stored)).toBe(true)
    expect(await verifyPassword('old-secret', stored)).toBe(true)
    expect(await verifyPassword('old-secreT', stored)).toBe(false)
    expect(needsRehash(stored)).toBe(true)
  })

  it("md5$hex from M/Monit's users.password (upper-case hex): verified, and always rehashed", async () => {
    const stored = md5Hash(hex('md5', 'swordfish').toUpperCase())!
    expect(stored).toBe(`md5$${hex('md5', 'swordfish')}`)
    expect(await verifyPassword('swordfish', stored)).toBe(true)
    expect(await verifyPassword('Swordfish', stored)).toBe(false)
    expect(needsRehash(stored)).toBe(true)
    expect(md5Hash('not an md5')).toBeUndefined()
  })

  it('a hash that cannot be read matches no password', async () => {
    for (const stored of ['', 'plain', 'scrypt$3$8$1$c2FsdA==$a2V5', 'scrypt$16$8$1$c2FsdA==$', 'bcrypt$x']) {
      expect(await verifyPassword('', stored)).toBe(false)
      expect(await verifyPassword('plain', stored)).toBe(false)
    }
  })
})
