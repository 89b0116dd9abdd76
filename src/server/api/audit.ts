// What the audit log records of an API request: who made it, and from where. Handlers record each change
// with store.auditLog.recording(actorOf(ctx), ...), in the transaction of the change.
import type { FastifyRequest } from 'fastify'
import { arg } from '../../shared/api/args'
import { emptyAnswer } from '../../shared/api/common'
import type { Principal } from '../domain/permissions'
import { endpoint, type ApiEndpoint } from '../http/api'
import { HttpError } from '../http/errors'
import type { AuditActor, AuditLogRepository } from '../store/audit-log'

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

/**
 * An administrator's POST that removes one `entity` (e.g. 'alert-rule') by id, audited as `entity.verb`
 * in the removal's transaction; 404 "no alert rule with id N" when `remove` finds none.
 */
export function removalEndpoint(
  auditLog: AuditLogRepository,
  o: { path: string; summary: string; entity: string; verb?: string; remove(id: number): boolean }
): ApiEndpoint {
  return endpoint({
    path: o.path,
    summary: o.summary,
    extension: true,
    answer: emptyAnswer,
    methods: ['POST'],
    access: 'admin',
    mutation: true,
    params: { id: arg.int() },
    handle: (ctx) => {
      const { id } = ctx.params
      auditLog.recording(actorOf(ctx), { action: `${o.entity}.${o.verb ?? 'delete'}`, target: `${o.entity} ${id}` }, () => {
        if (!o.remove(id)) throw new HttpError(404, `no ${o.entity.replaceAll('-', ' ')} with id ${id}`)
      })
      return {}
    }
  })
}
