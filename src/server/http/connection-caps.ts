// Caps the connections open at once, overall and per client address. A connection costs little while
// the timeouts keep what it may send small, but thousands of them from one machine still add up; the
// cap per address stops one machine from taking every connection the overall cap leaves.
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { Logger } from '../log'

export interface ConnectionCaps {
  maxConnections: number
  maxConnectionsPerAddress: number
}

/** Refusals of one kind are logged at most this often (ms): a flood must not flood the log too. */
const LOG_EVERY_MS = 60_000

/** Applies the caps to `server`; returns the count of open connections per address. */
export function capConnections(server: Server, caps: ConnectionCaps, log: Logger): ReadonlyMap<string, number> {
  const open = new Map<string, number>()
  const overall = refusalLog(log)
  const perAddress = refusalLog(log)

  // Node closes connections past this one itself, before reading a byte.
  server.maxConnections = caps.maxConnections
  server.on('drop', () => overall(`${caps.maxConnections} connections were open (--max-connections)`))
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? ''
    const count = (open.get(address) ?? 0) + 1
    if (count > caps.maxConnectionsPerAddress) {
      socket.destroy()
      perAddress(`${caps.maxConnectionsPerAddress} connections were open from ${address} (--max-connections-per-address)`)
      return
    }
    open.set(address, count)
    socket.once('close', () => {
      const left = open.get(address)! - 1
      if (left === 0) open.delete(address)
      else open.set(address, left)
    })
  })
  return open
}

/** Logs a refusal, then at most one line a minute with how many more there were. */
function refusalLog(log: Logger): (why: string) => void {
  let loggedAt = -Infinity
  let unlogged = 0
  return (why) => {
    unlogged++
    const now = performance.now()
    if (now - loggedAt < LOG_EVERY_MS) return
    log.warn(`closed ${unlogged} new connection(s) unanswered: ${why}`)
    loggedAt = now
    unlogged = 0
  }
}
