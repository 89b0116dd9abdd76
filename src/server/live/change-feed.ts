// Publishes what changed to live subscribers (the SSE route), in process. Keeps the last `capacity`
// changes in a ring so a reconnecting client can resume after its Last-Event-ID. Several instances on one
// database: what is published here is also forwarded to the others, and what they forward is received.
import type { LiveChange, LiveEnvelope } from '../../shared/live'

export type LiveListener = (envelope: LiveEnvelope) => void

export class ChangeFeed {
  private readonly ring: (LiveEnvelope | undefined)[]
  private readonly listeners = new Set<LiveListener>()
  private nextId: number
  private forward: ((changes: readonly LiveChange[]) => void) | undefined

  /**
   * Ids start from the clock (µs-scale) so that they keep increasing across restarts: a client's
   * Last-Event-ID from an earlier process is then older than the ring, and it is told to reload.
   */
  constructor(
    readonly capacity = 10_000,
    firstId = Date.now() * 1000
  ) {
    this.ring = new Array<LiveEnvelope | undefined>(capacity)
    this.nextId = firstId
  }

  /** The id of the newest change (one below the first id when nothing was published). */
  get lastId(): number {
    return this.nextId - 1
  }

  publish(change: LiveChange): void {
    this.deliver(change)
    this.forward?.([change])
  }

  publishAll(changes: readonly LiveChange[]): void {
    if (changes.length === 0) return
    for (const change of changes) this.deliver(change)
    this.forward?.(changes)
  }

  /** Hands every change published here on to `sink` as well (the other instances: live/cluster-changes.ts). */
  forwardTo(sink: (changes: readonly LiveChange[]) => void): void {
    this.forward = sink
  }

  /** Changes another instance published: to this feed's subscribers, not forwarded again. */
  receive(changes: readonly LiveChange[]): void {
    for (const change of changes) this.deliver(change)
  }

  private deliver(change: LiveChange): void {
    const envelope = { id: this.nextId++, change }
    this.ring[envelope.id % this.capacity] = envelope
    for (const listener of this.listeners) {
      // One broken subscriber must not fail the collector's request that published.
      try {
        listener(envelope)
      } catch {
        this.listeners.delete(listener)
      }
    }
  }

  /** Returns the unsubscribe function. */
  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  get subscribers(): number {
    return this.listeners.size
  }

  /** The changes after `id`, oldest first; undefined when some of them are no longer kept (or `id` is unknown). */
  since(id: number): LiveEnvelope[] | undefined {
    if (!Number.isSafeInteger(id) || id > this.lastId || this.lastId - id > this.capacity) return undefined
    const result: LiveEnvelope[] = []
    for (let n = id + 1; n <= this.lastId; n++) {
      const envelope = this.ring[n % this.capacity]
      if (envelope?.id !== n) return undefined
      result.push(envelope)
    }
    return result
  }
}
