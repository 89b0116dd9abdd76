// What the audit log records of an API request: who made it, and from where. Handlers record each change
// with store.auditLog.recording(actorOf(ctx), ...), in the transaction of the change.
import type { FastifyRequest } from 'fastify'
import type { Principal } from '../domain/permissions'
import type { AuditActor } from '../store/audit-log'

export function actorOf({ principal, request }: { principal: Principal; request: FastifyRequest }): AuditActor {
  return { userId: principal.userId, uname: principal.uname, address: request.ip }
}

/** Arguments that hold a secret, by name: the log says they were set, never what to. */
const SECRET_NAME = /pass|secret|token|key|credential/i

/** The detail of a row: the JSON of `fields` (undefined ones left out), any secret-named text as "(set)". */
export function detailOf(fields: object): string {
  return JSON.stringify(fields, (name, value: unknown) =>
    typeof value === 'string' && value !== '' && SECRET_NAME.test(name) ? '(set)' : value
  )
}
