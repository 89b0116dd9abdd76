// Slows down password guessing on every credential check: the login form and HTTP Basic (/collector,
// /metrics). Failures count per (client address, user name), so a guesser behind a shared NAT locks
// only the name they guess from their own address: other users there, and the same user (an agent)
// from elsewhere, are never slowed down. After `limit` failures within `windowSec` of the first one,
// the pair is locked until that window ends: its attempts are refused unchecked, the right password
// included, which also spares the password digest.
//
// User names are keyed exactly as given: the user table compares `uname` byte for byte (no COLLATE in
// migration 001), so every spelling that could match an account is one key.

export interface LoginThrottleOptions {
  limit?: number
  windowSec?: number
  /** Pairs tracked at most; see `admit` for what gives way first. */
  maxEntries?: number
  /** Seconds; tests inject their own clock. */
  now?: () => number
}

interface Entry {
  failures: number
  /** When the window opened by the first failure ends (seconds). */
  until: number
}

export class LoginThrottle {
  readonly limit: number
  readonly windowSec: number
  private readonly maxEntries: number
  private readonly now: () => number
  // Two maps, each in insertion order, so the oldest entry is the first key. `expendable` holds pairs
  // still counting and locks on names that are no account (kept only so that the answers do not reveal
  // which names exist); `kept` holds locks on accounts, the ones that protect a password. Under a
  // spray of addresses or names the expendable ones give way first, so an attacker cannot free their
  // own lock on an account by flooding the throttle with fresh pairs from one address.
  private readonly expendable = new Map<string, Entry>()
  private readonly kept = new Map<string, Entry>()

  constructor(options: LoginThrottleOptions = {}) {
    this.limit = options.limit ?? 5
    this.windowSec = options.windowSec ?? 300
    this.maxEntries = options.maxEntries ?? 10_000
    this.now = options.now ?? (() => Date.now() / 1000)
  }

  /** Pairs tracked now. */
  get size(): number {
    return this.expendable.size + this.kept.size
  }

  /** Seconds until `user` may try again from `address`; 0 when it may now. */
  retryAfter(address: string, user: string): number {
    if (this.size === 0) return 0 // the usual case, on the collector's hot path: no key to build
    const key = pairKey(address, user)
    const entry = this.expendable.get(key) ?? this.kept.get(key)
    if (!entry || entry.failures < this.limit) return 0
    const wait = entry.until - this.now()
    if (wait > 0) return Math.ceil(wait)
    this.forget(key)
    return 0
  }

  /** A wrong password (or unknown name: `account` false) for `user` from `address`. */
  failed(address: string, user: string, account: boolean): void {
    const key = pairKey(address, user)
    const now = this.now()
    let entry = this.expendable.get(key) ?? this.kept.get(key)
    if (!entry || entry.until <= now) {
      this.forget(key)
      this.admit()
      entry = { failures: 0, until: now + this.windowSec }
      this.expendable.set(key, entry)
    }
    entry.failures++
    if (entry.failures === this.limit && account) {
      this.expendable.delete(key)
      this.kept.set(key, entry)
    }
  }

  succeeded(address: string, user: string): void {
    if (this.size > 0) this.forget(pairKey(address, user))
  }

  private forget(key: string): void {
    if (!this.expendable.delete(key)) this.kept.delete(key)
  }

  /** Room for one more entry: expired ones go first, then the oldest expendable, then the oldest lock. */
  private admit(): void {
    const now = this.now()
    for (const map of [this.expendable, this.kept]) {
      for (const [key, entry] of map) {
        if (entry.until > now) break
        map.delete(key)
      }
    }
    if (this.size < this.maxEntries) return
    const oldest = this.expendable.size > 0 ? this.expendable : this.kept
    oldest.delete(oldest.keys().next().value!)
  }
}

// Addresses hold no space, so the first space ends the address whatever the user name holds.
function pairKey(address: string, user: string): string {
  return `${address} ${user}`
}
