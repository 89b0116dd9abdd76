// The audit log (admin/audit/list, our extension): who changed what and when.
import { z } from 'zod'
import { pageOf } from './common'

export const auditRecord = z.object({
  id: z.number().int(),
  at: z.number().int().describe('Unix seconds'),
  userId: z.number().int().nullable().describe('null: a failed login, or no known user'),
  uname: z.string().describe('As at the time (the user may have been deleted or renamed since)'),
  address: z.string().describe("The caller's IP address"),
  action: z.string().describe('A stable code: login, login-failed, user.create, host.update, service.action, ...'),
  target: z.string().describe("What it acted on, e.g. 'user 5 alice'"),
  detail: z.string().describe('JSON of what changed; never a password, token or other secret')
})
export type AuditRecord = z.infer<typeof auditRecord>

export const auditList = pageOf(auditRecord)
export type AuditList = z.infer<typeof auditList>
