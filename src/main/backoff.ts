// How long to wait before restarting a server that died: doubling delays up to a cap, forgiven once a
// run lasted long enough to count as healthy, and a limit after which the user is asked instead.

export interface BackoffPolicy {
  /** Delay before the first restart. */
  initialMs: number
  maxMs: number
  /** A run at least this long resets the count of consecutive failures. */
  healthyAfterMs: number
  /** Consecutive failures after which the supervisor gives up. */
  maxFailures: number
}

export const defaultBackoff: BackoffPolicy = { initialMs: 1_000, maxMs: 30_000, healthyAfterMs: 60_000, maxFailures: 8 }

/** Delay before restart number `failures` (1 for the first restart after a failure). */
export function restartDelay(policy: BackoffPolicy, failures: number): number {
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, failures - 1))
}
