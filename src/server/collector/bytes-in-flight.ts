// How many bytes of messages the collector holds at once, so that memory does not grow with the number
// of agents posting at once (issue 26). Memory a burst made the process take does not all go back to
// the system (V8 and the allocator keep much of it), so the bound is on what is held, not on what
// was seen.
import { LARGE_MESSAGE_BYTES } from './next-batch'

/** Bytes held for one message, added as they arrive; release() gives them all back. */
export interface Holding {
  /** Holds `bytes` more, or returns false (holding nothing more) when they would pass the bound. */
  grow(bytes: number): boolean
  release(): void
}

export class BytesInFlight {
  private held = 0

  /**
   * `maxBytes`: the bound. A holding of `alwaysAdmitted` bytes or less always grows, and so does any
   * when nothing else is held, so that one message up to the size limit always gets through.
   */
  constructor(
    private readonly maxBytes: number,
    private readonly alwaysAdmitted = 0
  ) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.held
  }

  hold(): Holding {
    let mine = 0
    return {
      grow: (bytes) => {
        if (bytes > this.alwaysAdmitted && this.held > mine && this.held + bytes > this.maxBytes) return false
        this.held += bytes
        mine += bytes
        return true
      },
      release: () => {
        this.held -= mine
        mine = 0
      }
    }
  }

  /** Holds `bytes` until the returned release is called, or returns undefined when they would pass the bound. */
  claim(bytes: number): (() => void) | undefined {
    const holding = this.hold()
    return holding.grow(bytes) ? holding.release : undefined
  }
}

/**
 * The XML of large messages. Each message in flight costs about twice its XML in memory (the gunzipped
 * bytes, the decoded text on the ingest thread); normal messages always pass, so that the bound slows
 * down large messages, never the others.
 */
export class XmlInFlight extends BytesInFlight {
  constructor(maxBytes: number) {
    super(maxBytes, LARGE_MESSAGE_BYTES)
  }
}
