// admin/alerts/mutes/list|create|end|delete (issue 13, our extension): maintenance. A muted host, or
// one of its services, produces no alert until the mute ends by itself, is ended early (it stays in the
// list of ended mutes: a maintenance log) or is deleted.
import type { AlertMuteRecord } from '../../shared/api/alerts'
import { endpoint, type ApiEndpoint } from '../http/api'
import { badArgument, HttpError } from '../http/errors'
import { arg } from '../../shared/api/args'
import type { AlertMute } from '../store/alert-mutes'
import { actorOf, detailOf, removalEndpoint } from './audit'
import type { ApiDeps } from './deps'
import { alertMuteListAnswer } from '../../shared/api/alerts'
import { createdAnswer, emptyAnswer } from '../../shared/api/common'

export function adminAlertMuteEndpoints({ store }: ApiDeps): ApiEndpoint[] {
  const mutes = store.alertMutes
  const hosts = store.hostAdmin
  const now = () => Math.floor(Date.now() / 1000)

  return [
    endpoint({
      path: 'admin/alerts/mutes/list',
      summary: 'Current mutes (with ended=true, ended ones too)',
      extension: true,
      answer: alertMuteListAnswer,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: { ended: arg.bool().optional() },
      handle: ({ params: { ended } }) => {
        const at = now()
        return { records: mutes.list(at, ended).map((m) => record(m, at)) }
      }
    }),
    endpoint({
      path: 'admin/alerts/mutes/create',
      summary: 'Mutes a host or one of its services until a time',
      extension: true,
      answer: createdAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { hostid: arg.int(), serviceid: arg.int().optional(), until: arg.int('a unix time'), reason: arg.text(1000).optional() },
      handle: (ctx) => {
        const { params: p, principal } = ctx
        const at = now()
        if (p.until <= at) throw badArgument('until', 'must be in the future')
        if (!hosts.find(p.hostid)) throw new HttpError(404, `no host with id ${p.hostid}`)
        let serviceNameId: number | null = null
        if (p.serviceid !== undefined) {
          serviceNameId = mutes.serviceNameOf(p.hostid, p.serviceid) ?? null
          if (serviceNameId === null) throw new HttpError(404, `no service with id ${p.serviceid} on host ${p.hostid}`)
        }
        const what = (id: number) => ({
          action: 'alert-mute.create',
          target: `alert-mute ${id} host ${p.hostid}`,
          detail: detailOf({ hostid: p.hostid, serviceid: p.serviceid, until: p.until, reason: p.reason })
        })
        const id = store.auditLog.recording(actorOf(ctx), what, () =>
          mutes.create({ hostId: p.hostid, serviceNameId, until: p.until, reason: p.reason?.trim() ?? '', createdBy: principal.uname }, at)
        )
        return { id }
      }
    }),
    endpoint({
      path: 'admin/alerts/mutes/end',
      summary: 'Ends a mute now, keeping it in the list (409 when it has already ended)',
      extension: true,
      answer: emptyAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int() },
      handle: (ctx) => {
        const { id } = ctx.params
        store.auditLog.recording(actorOf(ctx), { action: 'alert-mute.end', target: `alert-mute ${id}` }, () => {
          if (mutes.end(id, now())) return
          if (!mutes.exists(id)) throw new HttpError(404, `no alert mute with id ${id}`)
          throw new HttpError(409, `alert mute ${id} has already ended`)
        })
        return {}
      }
    }),
    removalEndpoint(store.auditLog, {
      path: 'admin/alerts/mutes/delete',
      summary: 'Deletes a mute',
      entity: 'alert-mute',
      remove: (id) => mutes.delete(id)
    })
  ]
}

function record(m: AlertMute, now: number): AlertMuteRecord {
  return {
    id: m.id,
    hostid: m.hostId,
    hostname: m.hostname,
    serviceid: m.serviceId,
    service: m.service,
    until: m.until,
    active: m.until > now,
    reason: m.reason,
    createdby: m.createdBy,
    createdat: m.createdAt
  }
}
