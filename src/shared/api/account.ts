// The contracts of the caller's own session and profile (session/*, profile/*) and of the server's
// settings (settings/*), shared by the server and the console.
import { z } from 'zod'

/** session/get: the session's attributes, the read-only CSRFToken among them. */
export const sessionAttributes = z.record(z.string(), z.string())

export const profile = z.object({
  id: z.number().int(),
  uname: z.string(),
  fullname: z.string(),
  email: z.string(),
  timezone: z.string().describe("The IANA time zone of the notifications e-mailed to the user; '' the server's"),
  servertimezone: z.string().describe("The server's own time zone, used when `timezone` is ''"),
  admin: z.boolean(),
  serviceactions: z.boolean().describe('May start/stop/restart/monitor/unmonitor services on at least one host'),
  csrftoken: z.string().describe('The CSRFToken header mutations need')
})
export type Profile = z.infer<typeof profile>

const limits = z.object({ min: z.number().int(), max: z.number().int() })

export const retention = z.object({ raw: z.number().int(), minute: z.number().int(), hour: z.number().int(), day: z.number().int() })

export const serverSettings = z.object({
  port: z
    .number()
    .int()
    .nullable()
    .describe('The port stored for the next start (used when neither --port nor OVERSEER_PORT chooses one); null: none'),
  defaultport: z.number().int(),
  listeningport: z.number().int().nullable().describe('The port the server listens on now'),
  urls: z.array(z.string()),
  sessiontimeout: z.number().int().describe('Seconds'),
  retention: retention.describe('Seconds each history level is kept'),
  eventretention: z.number().int().describe('Seconds events are kept (active errors stay whatever their age)'),
  auditretention: z.number().int().describe('Seconds audit log rows are kept'),
  forecasthorizon: z.number().int().describe('Seconds: a resource forecast to reach 100 % within them raises a Forecast event'),
  limits: z.object({ port: limits, sessiontimeout: limits, eventretention: limits, auditretention: limits, forecasthorizon: limits })
})
export type ServerSettings = z.infer<typeof serverSettings>
