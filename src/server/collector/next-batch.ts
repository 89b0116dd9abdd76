// Which queued messages the ingest thread stores next. Oldest first, but a batch takes at most one
// large message: a large one costs as much as hundreds of heartbeats to parse (or to refuse, see
// message-limits.ts), and behind a row of them every other agent's heartbeat would wait for all.

/** A normal agent's message is 4–8 KB for about 11 services (agent protocol §3); a big host's a few hundred KB. */
export const LARGE_MESSAGE_BYTES = 256 * 1024

/**
 * Removes the next batch from `queue` and returns it in queue order: up to `max` messages, all the
 * small ones first in line and the oldest large one. The others keep their order in the queue, so a
 * large message waits for at most as many batches as there are large ones ahead of it. Reordering
 * is harmless: an agent's messages may overlap anyway, and ingest orders by their timestamps, not by
 * arrival (agent protocol §3.4).
 */
export function takeBatch<T>(queue: T[], bytesOf: (message: T) => number, max: number): T[] {
  const batch: T[] = []
  const rest: T[] = []
  let large = false
  for (const message of queue) {
    const isLarge = bytesOf(message) > LARGE_MESSAGE_BYTES
    if (batch.length < max && (!isLarge || !large)) {
      batch.push(message)
      large ||= isLarge
    } else {
      rest.push(message)
    }
  }
  queue.splice(0, queue.length, ...rest)
  return batch
}
