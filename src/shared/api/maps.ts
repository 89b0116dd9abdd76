// The contract of map/id/*: id → name tables, integer keys written as JSON object keys (strings).
import { z } from 'zod'

export const mapNames = ['range', 'statisticstype', 'hoststatus'] as const

export function mapAnswer(name: (typeof mapNames)[number]) {
  return z.object({ map: z.object({ id: z.object({ [name]: z.record(z.string(), z.string()) }) }) })
}

/** map/name/host (compat CLI-4): host name → host id, over the hosts the caller may view. */
export const hostNameMapAnswer = z.object({ map: z.object({ name: z.object({ host: z.record(z.string(), z.number().int()) }) }) })
