// How much a client may make the HTTP server hold before it has proved who it is: time to send a
// request, connections open at once, and bytes of body buffered (issue 26). Without them, a thousand
// connections that each send all but the last byte of a 1 MiB form body held ~700 MB for good.

export interface HttpLimits {
  /** A request's headers must be in within this time of its first byte (Node's headersTimeout). */
  headersTimeoutMs: number
  /** The whole request, body included, within this time (Node's requestTimeout); answers are not bounded. */
  requestTimeoutMs: number
  /** Connections open at once, overall: past it new ones are closed unanswered. */
  maxConnections: number
  /** Connections open at once from one address: room for a NAT'd office of agents and browsers. */
  maxConnectionsPerAddress: number
  /** Body of a request that no session or password admits yet: the login form, setup, unknown paths. */
  publicBodyBytes: number
  /** Body of a request to a session-gated API endpoint (forms listing many host ids). */
  bodyBytes: number
}

/**
 * Agents send a whole message within Monit's own 5-second default timeout, a browser its forms at
 * once; a few thousand agents post on fresh connections they close after each answer, so few are open
 * at once even when the database stalls for seconds. A login form is under 1 KiB.
 */
export const defaultHttpLimits: HttpLimits = {
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 30_000,
  maxConnections: 4096,
  maxConnectionsPerAddress: 256,
  publicBodyBytes: 16 * 1024,
  bodyBytes: 1024 * 1024
}

/**
 * How often Node looks for requests past their timeouts: a request is closed between its timeout and
 * this much later. A quarter of the shorter timeout, so that tests with 1-second timeouts run fast.
 */
export function timeoutCheckInterval(limits: HttpLimits): number {
  return Math.max(100, Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)
}

/** The defaults with `chosen` over them; headers never get longer than the whole request (Node refuses that). */
export function httpLimitsWith(chosen: Partial<HttpLimits> = {}): HttpLimits {
  const limits = { ...defaultHttpLimits, ...chosen }
  return { ...limits, headersTimeoutMs: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) }
}
