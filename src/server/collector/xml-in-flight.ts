// How much large-message XML the collector holds at once. Each message in flight costs about twice
// its XML in memory (the gunzipped bytes, the decoded text on the ingest thread), and memory a burst
// made the process take does not all go back to the system (V8 and the allocator keep much of it).
// Without a bound, the worst case grows with the number of agents posting at the XML limit at once.
import { LARGE_MESSAGE_BYTES } from './next-batch'

export class XmlInFlight {
  private held = 0

  constructor(private readonly maxBytes: number) {}

  /**
   * Holds `bytes` of XML until the returned release is called, or returns undefined when a large
   * message would pass the bound. Normal messages always pass, and so does a large one when nothing
   * else is held: the bound slows down large messages, never the others.
   */
  claim(bytes: number): (() => void) | undefined {
    const large = bytes > LARGE_MESSAGE_BYTES
    if (large && this.held > 0 && this.held + bytes > this.maxBytes) return undefined
    this.held += bytes
    return () => void (this.held -= bytes)
  }
}
