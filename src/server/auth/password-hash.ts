// A password as stored: one string that names its scheme, so that costs can be raised and old schemes
// replaced user by user at login. Every new password gets `scrypt$N$r$p$salt$hash` (base64, the cost in
// the string). Two legacy forms are only verified, then replaced at the user's next login:
// `sha256$salt$hex`, sha256(salt + password) as Overseer stored it before migration 011, and `md5$hex`,
// M/Monit's unsalted MD5 as an import brings it.
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto'

export interface ScryptCost {
  N: number
  r: number
  p: number
}

/** 32 MiB and some 50–100 ms of one core per hash: slow for a guesser, bearable for a login. */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 }

const SALT_BYTES = 16
const KEY_BYTES = 32

let targetCost = DEFAULT_SCRYPT_COST

/** The cost of hashes made from now on, process-wide. Tests lower it; stored hashes keep their own. */
export function useScryptCost(cost: ScryptCost): void {
  targetCost = cost
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const cost = targetCost
  return scryptString(cost, salt, await scryptAsync(password, salt, cost))
}

/** For the command line's accounts at start-up, and Basic auth's upgrade (its callers are synchronous). */
export function hashPasswordSync(password: string): string {
  const salt = randomBytes(SALT_BYTES)
  const cost = targetCost
  return scryptString(cost, salt, scryptSync(password, salt, KEY_BYTES, scryptOptions(cost)))
}

/** `md5$hex` from M/Monit's `users.password` (upper- or lower-case hex); undefined when it is no MD5. */
export function md5Hash(hex: string): string | undefined {
  return /^[0-9a-f]{32}$/i.test(hex) ? `md5$${hex.toLowerCase()}` : undefined
}

/** Whether `password` matches `stored`, compared in constant time; false for a hash that cannot be read. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored)
  if (!parsed) return false
  const actual =
    parsed.scheme === 'scrypt'
      ? await scryptAsync(password, parsed.salt, parsed.cost, parsed.expected.length)
      : legacyDigest(parsed, password)
  return sameBytes(actual, parsed.expected)
}

/** A matching hash to replace: a legacy scheme, or scrypt cheaper than what new hashes get. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored)
  if (parsed?.scheme !== 'scrypt') return true
  const { N, r, p } = parsed.cost
  return N < targetCost.N || r < targetCost.r || p < targetCost.p
}

type Parsed =
  | { scheme: 'scrypt'; cost: ScryptCost; salt: Buffer; expected: Buffer }
  | { scheme: 'sha256'; salt: string; expected: Buffer }
  | { scheme: 'md5'; expected: Buffer }

function parse(stored: string): Parsed | undefined {
  const [scheme, ...parts] = stored.split('$')
  if (scheme === 'scrypt' && parts.length === 5) {
    const [N, r, p] = parts.slice(0, 3).map(Number)
    const valid =
      Number.isSafeInteger(N) && N > 1 && (N & (N - 1)) === 0 && Number.isSafeInteger(r) && r > 0 && Number.isSafeInteger(p) && p > 0
    const salt = Buffer.from(parts[3], 'base64')
    const expected = Buffer.from(parts[4], 'base64')
    return valid && expected.length > 0 ? { scheme, cost: { N, r, p }, salt, expected } : undefined
  }
  if (scheme === 'sha256' && parts.length === 2) return { scheme, salt: parts[0], expected: Buffer.from(parts[1], 'hex') }
  if (scheme === 'md5' && parts.length === 1) return { scheme, expected: Buffer.from(parts[0], 'hex') }
  return undefined
}

function legacyDigest(parsed: Exclude<Parsed, { scheme: 'scrypt' }>, password: string): Buffer {
  if (parsed.scheme === 'md5') return createHash('md5').update(password).digest()
  return createHash('sha256')
    .update(parsed.salt + password)
    .digest()
}

function scryptString({ N, r, p }: ScryptCost, salt: Buffer, key: Buffer): string {
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`
}

function scryptAsync(password: string, salt: Buffer, cost: ScryptCost, keyBytes = KEY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keyBytes, scryptOptions(cost), (err, key) => (err ? reject(err) : resolve(key)))
  )
}

/** maxmem above the 128·N·r bytes scrypt takes: Node's default (32 MiB) refuses N=2^15, r=8 exactly. */
function scryptOptions({ N, r, p }: ScryptCost) {
  return { N, r, p, maxmem: 256 * N * r }
}

function sameBytes(actual: Buffer, expected: Buffer): boolean {
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}
