// The contracts of admin/hosts/* and the service actions, shared by the server and the console, and
// the call-back rule: how the server reaches a host's agent.
import { z } from 'zod'

/** A host status an administrator sets: 0 Active, 1 Inactive, 2 Ignored. */
export const hostStatusNames = ['Active', 'Inactive', 'Ignored'] as const

/** admin/hosts/list; `inactive` (hosts stopped or silent) is api/2's and the legacy paths'. */
export const adminHostListAnswer = z.object({
  totalRecords: z.number().int(),
  inactive: z.number().int().optional(),
  records: z.array(
    z.object({
      id: z.number().int(),
      hostname: z.string(),
      ipaddr: z.string(),
      description: z.string(),
      agentversion: z.string(),
      monitversion: z.string().describe("The same as agentversion (the name in compat 6.8's sample)"),
      status: z.enum(hostStatusNames)
    })
  )
})
/** As api/2 answers it. */
export type AdminHostList = Required<z.infer<typeof adminHostListAnswer>>
export type AdminHostEntry = AdminHostList['records'][number]

/** admin/hosts/get and update; `defaultskew` is api/2's and the legacy paths'. */
export const adminHost = z.object({
  id: z.number().int(),
  hostname: z.string(),
  keepname: z.number().int(),
  ipaddrin: z.string(),
  ipaddrout: z.string(),
  portin: z.number().int(),
  portout: z.number().int(),
  sslin: z.number().int(),
  sslout: z.number().int(),
  agentid: z.string(),
  agentuser: z.string(),
  agentpassword: z.string().describe('Always empty: the server never sends it; empty in an update keeps the stored one'),
  description: z.string(),
  status: z.number().int(),
  skew: z.number().int(),
  defaultskew: z.number().int().optional(),
  poll: z.number().int(),
  lastmodified: z.number().int(),
  // Ours (not api/1): what the agent reports against what the server keeps once credentials are pinned.
  credentialspinned: z
    .number()
    .int()
    .optional()
    .describe('1: an administrator set the credentials; the call-back no longer follows the agent'),
  reportedipaddr: z.string().optional().describe("The agent's latest <httpd> address (ipaddrin follows it unless credentials are pinned)"),
  reportedport: z.number().int().optional(),
  reportedssl: z.number().int().optional(),
  sourceipaddr: z.string().optional().describe("The address the host's messages are known to come from"),
  lastsourceipaddr: z.string().optional().describe("Another address a message came from since, '' when none: shown until accepted"),
  agentcert: z
    .string()
    .optional()
    .describe("SHA-256 fingerprint of the agent's TLS certificate, pinned on the first call-back over TLS ('' until then)"),
  agentcertseen: z
    .string()
    .optional()
    .describe("Another certificate the agent presented since, '' when none: call-backs are refused until acceptcertificate=1")
})
/** As api/2 answers it. */
export type AdminHost = Required<z.infer<typeof adminHost>>

/** admin/hosts/delete: {} for the id form, the count for the inactive form. */
export const hostDeleteAnswer = z.object({ deleted: z.number().int().optional() })

export interface CallBackSettings {
  ipaddrout: string
  portout: number
  sslout: number
}
export interface ReportedAddress {
  ipaddrin: string
  portin: number
  sslin: number
}

/** The administrator's call-back overrides when set (address non-empty, port > 0, ssl 0 or 1), else what the agent reported. */
export function callBackTarget(set: CallBackSettings, reported: ReportedAddress): { ipaddr: string; port: number; ssl: boolean } {
  return {
    ipaddr: set.ipaddrout || reported.ipaddrin,
    port: set.portout > 0 ? set.portout : reported.portin,
    ssl: set.sslout === -1 ? reported.sslin === 1 : set.sslout === 1
  }
}

export { serviceActions, type ServiceAction } from './keys'
