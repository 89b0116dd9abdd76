// The encoding of a service's latest statistics in `service.statistics`: compact JSON tuples in the
// agent's order. Stable statistic ids live in the `statistic` registry, keyed by type and descriptor.

export interface LatestStatistic {
  type: number
  descriptor: string
  value: number
  text: string | null
}

type Tuple = [number, string, number, string | null]

export function encodeStatistics(list: readonly LatestStatistic[]): string {
  return JSON.stringify(list.map((s): Tuple => [s.type, s.descriptor, s.value, s.text]))
}

export function decodeStatistics(json: string): LatestStatistic[] {
  return (JSON.parse(json) as Tuple[]).map(([type, descriptor, value, text]) => ({ type, descriptor, value, text }))
}

export function statisticKey(type: number, descriptor: string): string {
  return `${type}\u0000${descriptor}`
}
