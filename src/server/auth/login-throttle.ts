// Slows down password guessing: after `limit` failures from one address within `windowSec`, further
// attempts from it are refused until the window has passed.
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>()

  constructor(private readonly limit = 5, private readonly windowSec = 300, private readonly now = () => Date.now() / 1000) {}

  /** Seconds until `address` may try again; 0 when it may now. */
  retryAfter(address: string): number {
    const recent = this.recent(address)
    return recent.length < this.limit ? 0 : Math.ceil(recent[0] + this.windowSec - this.now())
  }

  failed(address: string): void {
    const recent = this.recent(address)
    recent.push(this.now())
    this.failures.set(address, recent)
    if (this.failures.size > 10_000) this.failures.clear() // bounded memory under a spray of addresses
  }

  succeeded(address: string): void {
    this.failures.delete(address)
  }

  private recent(address: string): number[] {
    const cutoff = this.now() - this.windowSec
    return (this.failures.get(address) ?? []).filter((t) => t > cutoff)
  }
}
