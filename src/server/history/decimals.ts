// Monit reports decimals with few digits (12.3 %, 0.004 s, 1234567 KB). Stored as integers scaled by
// 10^k they take a few varint bytes instead of an 8-byte double, and sums of them stay exact.

/** Largest decimal scale tried: finer values are stored as doubles. */
export const MAX_SCALE = 6
const POWERS = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]

/** The smallest k ≤ 6 such that v is exactly a k-decimal number as a double; -1 when there is none. */
export function decimalsOf(v: number): number {
  if (Number.isSafeInteger(v)) return 0
  for (let k = 1; k <= MAX_SCALE; k++) {
    const p = POWERS[k]
    const m = Math.round(v * p)
    if (!Number.isSafeInteger(m)) return -1
    if (m / p === v) return k
  }
  return -1
}

export function powerOf10(k: number): number {
  return POWERS[k]
}

/**
 * a + b computed on the decimal grid both lie on, so that 0.1 + 0.2 is 0.3 (the double nearest the
 * exact decimal sum) and sums merged in any order give the same double. Plain addition otherwise.
 */
export function addExact(a: number, b: number): number {
  const sum = a + b
  if (Number.isSafeInteger(sum) && Number.isSafeInteger(a) && Number.isSafeInteger(b)) return sum
  const ka = decimalsOf(a)
  const kb = decimalsOf(b)
  if (ka < 0 || kb < 0) return a + b
  const p = POWERS[Math.max(ka, kb)]
  const scaled = Math.round(a * p) + Math.round(b * p)
  return Number.isSafeInteger(scaled) ? scaled / p : sum
}
