// The collector's self-metrics: how many messages were ingested, how long each took, and how many
// arrived in the last minute. Kept in memory: they describe this process, not the stored data.

/** Histogram bounds in seconds: a message usually takes well under a millisecond to a few. */
export const INGEST_BUCKETS: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

const WINDOW_SECONDS = 60

export interface IngestLatency {
  /** Cumulative counts per bound of INGEST_BUCKETS (Prometheus `le` semantics). */
  buckets: number[]
  sum: number
  count: number
}

export class CollectorStats {
  private messages = 0
  private latencySum = 0
  /** Non-cumulative counts per bucket; the last slot is +Inf. */
  private readonly bucketCounts = new Array<number>(INGEST_BUCKETS.length + 1).fill(0)
  // A ring of per-second counts: the rate needs no list of timestamps, whatever the message rate.
  private readonly perSecond = new Array<number>(WINDOW_SECONDS).fill(0)
  private readonly secondOfSlot = new Array<number>(WINDOW_SECONDS).fill(-1)

  constructor(private readonly now: () => number = Date.now) {}

  /** One message ingested in `seconds`. */
  record(seconds: number): void {
    this.messages++
    this.latencySum += seconds
    const bucket = INGEST_BUCKETS.findIndex((bound) => seconds <= bound)
    this.bucketCounts[bucket === -1 ? INGEST_BUCKETS.length : bucket]!++
    const second = Math.floor(this.now() / 1000)
    const slot = second % WINDOW_SECONDS
    if (this.secondOfSlot[slot] !== second) {
      this.secondOfSlot[slot] = second
      this.perSecond[slot] = 0
    }
    this.perSecond[slot]!++
  }

  get messagesTotal(): number {
    return this.messages
  }

  /** Messages per second, averaged over the last minute. */
  ratePerSecond(): number {
    const second = Math.floor(this.now() / 1000)
    let count = 0
    for (let slot = 0; slot < WINDOW_SECONDS; slot++) {
      if (second - this.secondOfSlot[slot]! < WINDOW_SECONDS) count += this.perSecond[slot]!
    }
    return count / WINDOW_SECONDS
  }

  latency(): IngestLatency {
    let running = 0
    const buckets = INGEST_BUCKETS.map((_, i) => (running += this.bucketCounts[i]!))
    return { buckets, sum: this.latencySum, count: this.messages }
  }
}
