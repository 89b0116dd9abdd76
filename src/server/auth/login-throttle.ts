// Slows down password guessing on every credential check: the login form, HTTP Basic (/collector,
// /metrics) and profile/update's old password. Failures count per (client address, user name), so a guesser behind a shared NAT locks
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
  /** Pairs tracked at most; see `makeRoom` for what gives way first. */
  maxEntries?: number
  /** Seconds; tests inject their own clock. */
  now?: () => number
}

interface Entry {
  key: string
  failures: number
  /** When the window opened by the first failure ends (seconds). */
  until: number
  /** A lock on an account: what gives way last when room is short. */
  kept: boolean
}

export class LoginThrottle {
  readonly limit: number
  readonly windowSec: number
  private readonly maxEntries: number
  private readonly now: () => number
  private readonly entries = new Map<string, Entry>()
  // Entries by age in two queues. `expendable` holds pairs still counting and locks on names that are
  // no account (kept only so that the answers do not reveal which names exist); `kept` holds locks on
  // accounts, the ones that protect a password. Under a spray of addresses or names the expendable ones
  // give way first, so an attacker cannot free their own lock on an account by flooding the throttle
  // with fresh pairs from one address. Queue items are dropped lazily: one whose entry was since removed
  // or moved is skipped at the front. (Evicting from the front of a Map instead leaves holes that V8's
  // iterator walks over again on every eviction: ~6 µs each at 10,000 entries.)
  private readonly expendable = new AgeQueue()
  private readonly kept = new AgeQueue()

  constructor(options: LoginThrottleOptions = {}) {
    this.limit = options.limit ?? 5
    this.windowSec = options.windowSec ?? 300
    this.maxEntries = options.maxEntries ?? 10_000
    this.now = options.now ?? (() => Date.now() / 1000)
  }

  /** Pairs tracked now. */
  get size(): number {
    return this.entries.size
  }

  /** Seconds until `user` may try again from `address`; 0 when it may now. */
  retryAfter(address: string, user: string): number {
    if (this.entries.size === 0) return 0 // the usual case, on the collector's hot path: no key to build
    const key = pairKey(address, user)
    const entry = this.entries.get(key)
    if (!entry || entry.failures < this.limit) return 0
    const wait = entry.until - this.now()
    if (wait > 0) return Math.ceil(wait)
    this.entries.delete(key)
    return 0
  }

  /** A wrong password (or unknown name: `account` false) for `user` from `address`. */
  failed(address: string, user: string, account: boolean): void {
    const key = pairKey(address, user)
    const now = this.now()
    let entry = this.entries.get(key)
    if (!entry || entry.until <= now) {
      this.entries.delete(key)
      this.makeRoom(now)
      entry = { key, failures: 0, until: now + this.windowSec, kept: false }
      this.entries.set(key, entry)
      this.enqueue(this.expendable, entry)
    }
    entry.failures++
    if (entry.failures === this.limit && account) {
      entry.kept = true
      this.enqueue(this.kept, entry)
    }
  }

  succeeded(address: string, user: string): void {
    if (this.entries.size > 0) this.entries.delete(pairKey(address, user))
  }

  /** Whether `item` is still the entry of its key, in the tier of `queue`. */
  private live(item: Entry, queue: AgeQueue): boolean {
    return this.entries.get(item.key) === item && item.kept === (queue === this.kept)
  }

  private enqueue(queue: AgeQueue, entry: Entry): void {
    queue.push(entry)
    // Bounds the items left behind by entries removed out of order (a success, a move between tiers).
    if (queue.length > 2 * this.maxEntries) queue.retain((item) => this.live(item, queue))
  }

  /** Room for one more entry: expired ones go first, then the oldest expendable, then the oldest lock. */
  private makeRoom(now: number): void {
    for (const queue of [this.expendable, this.kept]) {
      for (let item = queue.first(); item && (!this.live(item, queue) || item.until <= now); item = queue.first()) {
        if (this.live(item, queue)) this.entries.delete(item.key)
        queue.shift()
      }
    }
    if (this.entries.size < this.maxEntries) return
    for (const queue of [this.expendable, this.kept]) {
      for (let item = queue.first(); item; item = queue.first()) {
        queue.shift()
        if (this.live(item, queue)) {
          this.entries.delete(item.key)
          return
        }
      }
    }
  }
}

/** Entries in the order they were pushed; shift() is O(1) amortised. */
class AgeQueue {
  private items: (Entry | undefined)[] = []
  private head = 0

  get length(): number {
    return this.items.length - this.head
  }

  push(entry: Entry): void {
    this.items.push(entry)
  }

  first(): Entry | undefined {
    return this.items[this.head]
  }

  shift(): void {
    this.items[this.head++] = undefined
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
  }

  retain(keep: (entry: Entry) => boolean): void {
    this.items = this.items.slice(this.head).filter((e): e is Entry => e !== undefined && keep(e))
    this.head = 0
  }
}

// Addresses hold no space, so the first space ends the address whatever the user name holds.
function pairKey(address: string, user: string): string {
  return `${address} ${user}`
}
