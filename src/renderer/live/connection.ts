// Whether the server answers, and since when the console's figures date: every API answer and every
// live frame is good news, a failed fetch, a broken live stream or a 503 (the server there, its database
// not) is bad news. Screens read it through onConnection (the outage banner, the stale look of the
// figures); when the server answers again, listeners of onReconnect refresh what went stale or failed
// meanwhile.

export interface Connection {
  reachable: boolean
  /** When the server is there but cannot serve its data (a 503: its database out of reach), what it said. */
  problem?: string
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

/** Nothing answered (a failed fetch), or the live stream broke: kept as it is when the server said why. */
export function serverUnreachable(): void {
  if (current.reachable) publish({ ...current, reachable: false })
}

/** The server answered 503 with `problem`: it is there, but its figures cannot be brought up to date. */
export function serverUnavailable(problem: string): void {
  if (current.reachable || current.problem !== problem) publish({ ...current, reachable: false, problem })
}
