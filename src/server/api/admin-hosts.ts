// admin/hosts/list|get|update|delete (spec: Admin hosts; compat 6.8). Hosts are created by the
// collector only; administrators name them, say how to call the agent back, and set their status.
import type { z } from 'zod'
import { Heartbeat, HostStatus, hostStatusLabel } from '../../shared/codes'
import type { SecretBox } from '../auth/secret-box'
import { DEFAULT_SKEW } from '../domain/heartbeat'
import { nextHostState } from '../domain/host-transition'
import { endpoint, type ApiEndpoint, type ApiVersion } from '../http/api'
import { badArgument, HttpError } from '../http/errors'
import { arg } from '../../shared/api/args'
import { agentAddressRule, hostNameRule, isPortOut, isSkew, PORT_OUT, SKEW } from '../../shared/api/hosts-admin'
import type { HostListRow } from '../store/host-admin'
import type { HostChanges, HostRow } from '../store/hosts'
import { actorOf, detailOf } from './audit'
import type { ApiDeps } from './deps'
import { adminHost, adminHostListAnswer, hostDeleteAnswer } from '../../shared/api/hosts'

const updateParams = {
  id: arg.int(),
  hostname: hostNameRule,
  // agentuser/agentpassword per the spec; monituser/monitpassword as existing clients send them (compat 6.8).
  agentuser: arg.text(255).optional(),
  monituser: arg.text(255).optional(),
  agentpassword: arg.text(255).optional(),
  monitpassword: arg.text(255).optional(),
  keepname: arg.intIn(0, 1, '0 or 1').optional(),
  description: arg.text(1000).optional(),
  status: arg.intIn(0, 2, '0 (Active), 1 (Inactive) or 2 (Ignored)').optional(),
  ipaddrout: agentAddressRule.optional(),
  portout: arg.int().refine(isPortOut, PORT_OUT).optional(),
  sslout: arg.intIn(-1, 1, '-1, 0 or 1').optional(),
  skew: arg.int().refine(isSkew, SKEW).optional(),
  // Ours: takes the agent's reported <httpd> as the call-back and its latest source address as known.
  acceptreported: arg.intIn(0, 1, '0 or 1').optional(),
  // Ours: pins the other certificate the agent presented (agentcertseen) in place of the pinned one.
  acceptcertificate: arg.intIn(0, 1, '0 or 1').optional()
}
type UpdateParams = z.output<z.ZodObject<typeof updateParams>>

export function adminHostEndpoints({ store, secrets, feed }: ApiDeps): ApiEndpoint[] {
  const hosts = store.hostAdmin
  const existing = (id: number): HostRow => {
    const host = hosts.find(id)
    if (!host) throw new HttpError(404, `no host with id ${id}`)
    return host
  }
  const removed = (ids: readonly number[]) => {
    for (const hostId of ids) feed?.publish({ kind: 'host-removed', hostId })
  }

  return [
    endpoint({
      path: 'admin/hosts/list',
      pureRead: true,
      summary: 'Every host, for administration',
      answer: adminHostListAnswer,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: {},
      handle: ({ version }) => hostList(hosts.list(), version)
    }),
    endpoint({
      path: 'admin/hosts/get',
      pureRead: true,
      summary: "One host's administrative settings",
      answer: adminHost,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: { id: arg.int() },
      handle: ({ params, version }) => hostRecord(existing(params.id), version)
    }),
    endpoint({
      path: 'admin/hosts/update',
      summary: "Changes a host's name, description, status, call-back address and credentials, and heartbeat tolerance",
      answer: adminHost,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: updateParams,
      handle: (ctx) => {
        const { params, version } = ctx
        const credentials = agentCredentials(params)
        const host = existing(params.id)
        const { id, ...changed } = params
        const what = { action: 'host.update', target: `host ${id} ${host.hostname}`, detail: detailOf(changed) }
        store.auditLog.recording(actorOf(ctx), what, () =>
          hosts.update(host.id, hostChanges(host, params, credentials, secrets, Date.now()))
        )
        const updated = existing(host.id)
        // A new name or status (e.g. Ignored) changes what consoles show.
        if (updated.hostname !== host.hostname || updated.led !== host.led || updated.status_text !== host.status_text) {
          feed?.publish({
            kind: 'host-changed',
            hostId: updated.id,
            hostname: updated.hostname,
            led: updated.led,
            status: updated.status_text
          })
        }
        return hostRecord(updated, version)
      }
    }),
    endpoint({
      path: 'admin/hosts/delete',
      summary: 'Deletes one host (id), or every host inactive for at least `inactive` seconds',
      answer: hostDeleteAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int().optional(), inactive: arg.intIn(0, Number.MAX_SAFE_INTEGER, 'a number of seconds').optional() },
      handle: (ctx) => {
        const {
          params: { id, inactive },
          version
        } = ctx
        // api/2: exactly one form; api/1 and legacy: the id form when id is given (spec: Versioning).
        if (version === 2 && (id === undefined) === (inactive === undefined)) {
          throw badArgument('id', 'give exactly one of id or inactive')
        }
        if (id !== undefined) {
          const what = { action: 'host.delete', target: `host ${id} ${hosts.find(id)?.hostname ?? ''}` }
          store.auditLog.recording(actorOf(ctx), what, () => {
            if (!hosts.delete(id)) throw new HttpError(404, `no host with id ${id}`)
          })
          removed([id])
          return {}
        }
        if (inactive === undefined) throw badArgument('id', 'is required (or inactive)')
        const what = (ids: number[]) => ({ action: 'host.delete', target: `${ids.length} hosts`, detail: detailOf({ inactive, ids }) })
        const ids = store.auditLog.recording(actorOf(ctx), what, () => hosts.deleteInactiveSince(Math.floor(Date.now() / 1000) - inactive))
        removed(ids)
        return { deleted: ids.length }
      }
    })
  ]
}

function hostList(rows: HostListRow[], version: ApiVersion) {
  // Inactive: stopped gracefully, or silent (spec: admin/hosts/delete).
  const inactive = rows.filter((h) => h.status === HostStatus.Inactive || h.heartbeat === Heartbeat.Dead).length
  return {
    totalRecords: rows.length,
    ...(version !== 1 && { inactive }),
    // Keys in alphabetical order, as M/Monit writes them: a client pretty-prints the list and reads the four
    // lines before "status" as hostname, id, ipaddr and monitversion (compat CLI-5).
    records: rows.map((h) => ({
      agentversion: h.agent_version,
      description: h.description,
      hostname: h.hostname,
      id: h.id,
      ipaddr: h.ipaddr_out || h.ipaddr_in,
      // The name in compat 6.8's sample of the list.
      monitversion: h.agent_version,
      status: hostStatusLabel[h.status as HostStatus]
    }))
  }
}

function hostRecord(h: HostRow, version: ApiVersion) {
  return {
    id: h.id,
    hostname: h.hostname,
    keepname: h.keepname,
    ipaddrin: h.ipaddr_in,
    ipaddrout: h.ipaddr_out,
    portin: h.port_in,
    portout: h.port_out,
    sslin: h.ssl_in,
    sslout: h.ssl_out,
    agentid: h.agent_id,
    agentuser: h.agent_user,
    // Never returned: an agent administrator password (compat 6.8). Update keeps it when sent empty.
    agentpassword: '',
    description: h.description,
    status: h.status,
    skew: h.skew ?? DEFAULT_SKEW,
    ...(version !== 1 && { defaultskew: DEFAULT_SKEW }),
    poll: h.poll,
    lastmodified: h.last_modified,
    ...(version !== 1 && {
      credentialspinned: h.credentials_pinned,
      reportedipaddr: h.reported_ipaddr,
      reportedport: h.reported_port,
      reportedssl: h.reported_ssl,
      sourceipaddr: h.source_ipaddr,
      lastsourceipaddr: h.last_source_ipaddr,
      agentcert: h.agent_cert_sha256,
      agentcertseen: h.agent_cert_seen_sha256
    })
  }
}

interface AgentCredentials {
  user: string
  password: string
}

function agentCredentials(p: UpdateParams): AgentCredentials {
  const user = p.agentuser ?? p.monituser
  const password = p.agentpassword ?? p.monitpassword
  if (user === undefined) throw badArgument('agentuser', 'is required')
  if (password === undefined) throw badArgument('agentpassword', 'is required')
  return { user, password }
}

function hostChanges(host: HostRow, p: UpdateParams, credentials: AgentCredentials, secrets: SecretBox, nowMs: number): HostChanges {
  const changes: HostChanges = {
    hostname: p.hostname,
    keepname: p.keepname,
    description: p.description,
    ipaddr_out: p.ipaddrout,
    port_out: p.portout,
    ssl_out: p.sslout,
    skew: p.skew,
    ...credentialChanges(host, credentials, secrets),
    ...(p.acceptreported === 1 && {
      ipaddr_in: host.reported_ipaddr,
      port_in: host.reported_port,
      ssl_in: host.reported_ssl,
      source_ipaddr: host.last_source_ipaddr || host.source_ipaddr,
      last_source_ipaddr: ''
    }),
    ...(p.acceptcertificate === 1 &&
      host.agent_cert_seen_sha256 !== '' && { agent_cert_sha256: host.agent_cert_seen_sha256, agent_cert_seen_sha256: '' })
  }
  // The status an administrator sets (spec: States and transitions); Ignored suppresses events in ingest.
  const status = (p.status ?? host.status) as HostStatus
  return { ...changes, ...nextHostState(host, { kind: 'administrator', nowMs, status, skew: p.skew ?? host.skew }) }
}

/**
 * An empty password keeps the stored one (get never returns it). Credentials set here are pinned:
 * the agent's own reports stop overwriting them (see collector/ingest.ts).
 */
function credentialChanges(host: HostRow, { user, password }: AgentCredentials, secrets: SecretBox): HostChanges {
  const changes: HostChanges = {}
  if (user !== host.agent_user) changes.agent_user = user
  if (password !== '' && password !== secrets.open(host.agent_password)) changes.agent_password = secrets.seal(password)
  if (Object.keys(changes).length > 0) changes.credentials_pinned = 1
  return changes
}
