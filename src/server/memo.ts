// A few computed values by key, the least recently asked dropped past `capacity`: for values costly to
// compute whose key names every input they share (reports-uptime.ts), so that a value is replaced rather than stale.
export class Memo<T> {
  private readonly values = new Map<string, T>()

  constructor(private readonly capacity: number) {}

  get(key: string, compute: () => T): T {
    const value = this.values.has(key) ? this.values.get(key)! : compute()
    this.values.delete(key)
    this.values.set(key, value)
    if (this.values.size > this.capacity) this.values.delete(this.values.keys().next().value!)
    return value
  }
}
