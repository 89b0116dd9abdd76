// The contracts of reports/uptime/{list,get}, shared by the server and the console.
import { z } from 'zod'
import { rangeId } from './ranges'

/** A host (list) or a service (get) of an uptime report. */
export const uptimeItem = z.object({
  id: z.number().int(),
  active: z.union([z.literal(0), z.literal(1)]).describe('0 when the host is not active or the service not monitored'),
  name: z.string(),
  uptime: z.number().describe('Percent of the known time, two decimals'),
  downtime: z.string().describe('"1h 5m"'),
  events: z.number().int(),
  // Ours, not M/Monit's.
  unknown: z
    .string()
    .describe(
      'Ours: "1h 5m" of the range whose state is unknown, counted neither as up nor as down: the server was not running, or the host had not reported yet'
    ),
  downtimeseconds: z.number().int().describe('Ours: the downtime in seconds (whole minutes)'),
  unknownseconds: z.number().int().describe('Ours: the unknown time in seconds (whole minutes)'),
  servicesup: z
    .number()
    .nullable()
    .optional()
    .describe(
      "Ours, list only: the time-weighted share of the host's monitored services that were up, percent of the known time, two decimals; null when it monitors none. `uptime` is the agent reporting (the host's silence is its downtime)"
    )
})
export type UptimeItem = z.infer<typeof uptimeItem>

/** A span of the range in which the server itself was not running, in unix seconds: [from, to). */
export const serverDowntime = z.object({ from: z.number().int(), to: z.number().int() })
export type ServerDowntime = z.infer<typeof serverDowntime>

export const uptimeReport = z.object({
  range: rangeId,
  datefrom: z.number().int(),
  dateto: z.number().int(),
  uptime: z.number(),
  downtime: z.string(),
  items: z.array(uptimeItem),
  servicesup: z
    .number()
    .nullable()
    .describe(
      "Ours: list, the mean of the hosts' services up; get, the host's services up (the time-weighted share of its monitored services that were up); null when no service is monitored"
    ),
  serverdowntime: z.string().describe('Ours: "5m", the minutes of the range the server itself was not running (unknown to every item)'),
  serverdown: z.array(serverDowntime).describe('Ours: when the server was not running, cut to the elapsed part of the range, oldest first')
})
export type UptimeReport = z.infer<typeof uptimeReport>
