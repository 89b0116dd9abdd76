// A few computed values by key, the oldest dropped past `capacity`: for answers costly to compute whose key
// names every input (reports-uptime.ts), so that a value is replaced rather than stale. `maxAgeMs` bounds
// what a key cannot name exactly (a change committed between reading the key and reading the data).
export class Memo<T> {
  private readonly values = new Map<string, { value: T; at: number }>()

  constructor(
    private readonly capacity: number,
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now
  ) {}

  get(key: string, compute: () => T): T {
    const kept = this.values.get(key)
    if (kept !== undefined && this.now() - kept.at < this.maxAgeMs) return kept.value
    const value = compute()
    this.values.delete(key)
    this.values.set(key, { value, at: this.now() })
    if (this.values.size > this.capacity) this.values.delete(this.values.keys().next().value!)
    return value
  }
}
