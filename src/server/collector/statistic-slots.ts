// The registry ids of a known service's statistics, by (type, descriptor). The ingest keeps one for
// every service of every host it has seen, so it is kept small: the list of keys is shared by the
// services that report the same statistics (most of a fleet's), and the ids are one exact-size array.
// A Map with an object per statistic held ~1 KB per service of a fleet's ingest heap (docs/performance.md).
import type { StatisticKey } from '../store/latest-statistics'

/** Up to this many statistics a service's are looked up by a scan; past it, through a Map built then. */
const SCAN_LIMIT = 16
/** Distinct lists of keys kept for sharing; past it the pool starts again (sharing is only a saving). */
const POOL_LIMIT = 10_000
/** Longer lists (a service with many descriptors) are rarely alike: not worth their signature in the pool. */
const POOLED_KEYS_MAX = 64

const keyListPool = new Map<string, readonly StatisticKey[]>()

function sharedKeyList(keys: readonly StatisticKey[]): readonly StatisticKey[] {
  if (keys.length > POOLED_KEYS_MAX) return keys.slice()
  const signature = JSON.stringify(keys)
  const pooled = keyListPool.get(signature)
  if (pooled) return pooled
  if (keyListPool.size >= POOL_LIMIT) keyListPool.clear()
  const list = keys.slice()
  keyListPool.set(signature, list)
  return list
}

export class StatisticSlots {
  private keys: readonly StatisticKey[]
  /** Whether `keys` is this service's own list (else the pool's, copied before a key is added). */
  private ownKeys = false
  private readonly ids: number[]
  private index: Map<StatisticKey, number> | undefined

  /** `keys[i]` registered as `ids[i]`, the keys distinct. */
  constructor(keys: readonly StatisticKey[] = [], ids: readonly number[] = []) {
    this.keys = sharedKeyList(keys)
    this.ids = ids.slice()
    if (keys.length > SCAN_LIMIT) this.index = new Map(keys.map((k, i) => [k, i]))
  }

  /**
   * The statistic's slot, -1 when it has none. Agents send a service's statistics in the same order
   * every time, so the slot at the statistic's position in the message is tried first.
   */
  find(key: StatisticKey, position: number): number {
    if (this.keys[position] === key) return position
    return this.index ? (this.index.get(key) ?? -1) : this.keys.indexOf(key)
  }

  /** Adds a registered statistic; returns its slot. */
  add(key: StatisticKey, id: number): number {
    const keys = this.ownKeys ? (this.keys as StatisticKey[]) : this.keys.slice()
    this.keys = keys
    this.ownKeys = true
    const slot = keys.push(key) - 1
    this.ids.push(id)
    if (this.index) this.index.set(key, slot)
    else if (keys.length > SCAN_LIMIT) this.index = new Map(keys.map((k, i) => [k, i]))
    return slot
  }

  /** The registry id of the statistic in the slot. */
  id(slot: number): number {
    return this.ids[slot]
  }
}

/**
 * One pass over a service's statistics takes each slot once: an agent that repeats a (type, descriptor)
 * within a service has its first value stored. Marks are stamped with the pass's number, so a new pass
 * clears nothing; one scratch array serves every service.
 */
export class StatisticPass {
  private stamps = new Uint32Array(64)
  private current = 0

  begin(): void {
    if (this.current === 0xffffffff) {
      this.stamps.fill(0)
      this.current = 0
    }
    this.current++
  }

  /** Whether the slot is not taken yet in this pass; takes it. */
  take(slot: number): boolean {
    if (slot >= this.stamps.length) {
      const grown = new Uint32Array(Math.max(slot + 1, this.stamps.length * 2))
      grown.set(this.stamps)
      this.stamps = grown
    }
    if (this.stamps[slot] === this.current) return false
    this.stamps[slot] = this.current
    return true
  }
}
