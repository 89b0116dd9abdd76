// The encoding of a service's latest statistics in `service.statistics`: compact JSON tuples in the
// agent's order. Stable statistic ids live in the `statistic` registry, keyed by type and descriptor.

export interface LatestStatistic {
  type: number
  descriptor: string
  value: number
  text: string | null
}

type Tuple = [number, string, number, string | null]

/**
 * One statistic's tuple, as JSON.stringify writes it (a value that is not finite becomes null); the
 * encoding is the tuples joined by commas in brackets. Built by hand: the collector encodes every
 * statistic of every message, and this costs a fraction of stringifying arrays.
 */
export function encodeStatistic(type: number, descriptor: string, value: number, text: string | undefined): string {
  const number = Number.isFinite(value) ? String(value) : 'null'
  return `[${type},${jsonString(descriptor)},${number},${text === undefined ? 'null' : jsonString(text)}]`
}

function jsonString(s: string): string {
  return s === '' ? '""' : JSON.stringify(s)
}

export function decodeStatistics(json: string): LatestStatistic[] {
  return (JSON.parse(json) as Tuple[]).map(([type, descriptor, value, text]) => ({ type, descriptor, value, text }))
}

/**
 * A statistic's key within its service: its type alone when it has no descriptor (most have none),
 * else type and descriptor. The collector looks up every statistic of every message by it, and a
 * number key needs no string to be built and hashed.
 */
export type StatisticKey = number | string

export function statisticKey(type: number, descriptor: string): StatisticKey {
  return descriptor === '' ? type : `${type}\u0000${descriptor}`
}
