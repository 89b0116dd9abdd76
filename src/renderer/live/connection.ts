// Whether the server answers, and since when the console's figures date: every API answer and every
// live frame is good news, a failed fetch or a broken live stream is bad news. Screens read it through
// onConnection (the outage banner, the stale look of the figures); when the server answers again,
// listeners of onReconnect refresh what went stale or failed meanwhile.

export interface Connection {
  reachable: boolean
  /** Epoch milliseconds of the last answer from the server; undefined before the first. */
  lastGoodAt?: number
}

const listeners = new Set<(connection: Connection) => void>()
const reconnectListeners = new Set<() => void>()
let current: Connection = { reachable: true }

export function onConnection(listener: (connection: Connection) => void): () => void {
  listeners.add(listener)
  listener(current)
  return () => {
    listeners.delete(listener)
  }
}

export function onReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener)
  return () => {
    reconnectListeners.delete(listener)
  }
}

function publish(next: Connection): void {
  current = next
  for (const listener of listeners) listener(next)
}

/** The server answered (any HTTP status: it is there). */
export function serverAnswered(now = Date.now()): void {
  const wasDown = !current.reachable
  current = { reachable: true, lastGoodAt: now }
  // Only changes are published: answers arrive many times a second.
  if (wasDown) {
    publish(current)
    for (const listener of reconnectListeners) listener()
  }
}

export function serverUnreachable(): void {
  if (current.reachable) publish({ ...current, reachable: false })
}
