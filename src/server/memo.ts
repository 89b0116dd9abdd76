// A few computed values by key, the oldest dropped past `capacity`: for answers costly to compute whose key
// names every input (reports-uptime.ts), so that a value is never stale, only replaced.
export class Memo<T> {
  private readonly values = new Map<string, T>()

  constructor(private readonly capacity: number) {}

  get(key: string, compute: () => T): T {
    const kept = this.values.get(key)
    if (kept !== undefined) return kept
    const value = compute()
    this.values.set(key, value)
    if (this.values.size > this.capacity) this.values.delete(this.values.keys().next().value!)
    return value
  }
}
