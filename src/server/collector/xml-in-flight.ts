// How much large-message XML the collector holds at once. Each message in flight costs several times
// its XML in memory (the gunzipped bytes, their copy for the ingest thread, the decoded text), and
// memory a burst made the process take is slow to go back to the system: 16 agents posting 8 MiB
// messages at once took the server from 90 MB to 450 MB and left it above 300 MB.
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
