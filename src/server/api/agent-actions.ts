// Calls back to Monit agents (agent protocol §5): the connection test of admin/hosts/test, and service
// actions through admin/hosts/action and action/service (compat 6.8, 6.13).
import { z } from 'zod'
import { Permission } from '../../shared/codes'
import { AgentClient, AgentError, CertificateChangedError, type AgentTarget } from '../agent/client'
import type { SecretBox } from '../auth/secret-box'
import { mayOnHost } from '../domain/permissions'
import { endpoint, type ApiContext, type ApiEndpoint } from '../http/api'
import { HttpError } from '../http/errors'
import type { RawParams } from '../http/params'
import { arg } from '../../shared/api/args'
import type { HostAdminRepository } from '../store/host-admin'
import type { HostRow } from '../store/hosts'
import type { Store } from '../store/store'
import { actorOf, detailOf } from './audit'
import type { ApiDeps } from './deps'
import { emptyAnswer, testOutcome } from '../../shared/api/common'
import { callBackTarget as callBack, serviceActions } from '../../shared/api/hosts'

/** A host name, IPv4 or IPv6 address (as admin/hosts/update takes it): nothing that could break a request line. */
const address = arg.required(255).regex(/^[A-Za-z0-9._:%-]+$/, 'expected a host name or an IP address')
const port = arg.intIn(1, 65535, 'a port from 1 to 65535')
const action = arg.oneOf(serviceActions)

const testParams = {
  // Not in the spec: the host whose stored credentials stand in for those left out (testCredentials).
  id: arg.int().optional(),
  ipaddr: address,
  port,
  ssl: arg.intIn(0, 1, '0 or 1').optional(),
  // agentuser/agentpassword per the spec; monituser/monitpassword as existing clients send them (compat 6.8).
  agentuser: arg.text(255).optional(),
  monituser: arg.text(255).optional(),
  agentpassword: arg.text(255).optional(),
  monitpassword: arg.text(255).optional()
}

type TestParams = z.output<z.ZodObject<typeof testParams>>

export interface AgentActionOptions {
  /** Agent call timeouts, for tests. Default: the client's (5 s). */
  timeoutMs?: number
}

export function agentActionEndpoints({ store, secrets }: ApiDeps, opts: AgentActionOptions = {}): ApiEndpoint[] {
  const hosts = store.hostAdmin
  const timeouts = opts.timeoutMs === undefined ? {} : { connectTimeoutMs: opts.timeoutMs, responseTimeoutMs: opts.timeoutMs }
  // Permission first: otherwise a caller without it could learn which hosts and services exist.
  const act = async (ctx: ApiContext<unknown>, hostId: number, names: () => readonly string[], what: string) => {
    const { principal } = ctx
    if (!mayOnHost(principal, hostId, Permission.ServiceActions))
      throw new HttpError(403, `no permission for service actions on host ${hostId}`)
    const host = hosts.find(hostId)
    if (!host) throw new HttpError(404, `no host with id ${hostId}`)
    const services = names()
    const client = new AgentClient({ ...callBackTarget(host, secrets), certificateSha256: host.agent_cert_sha256, ...timeouts })
    // Logged once the agent answered, in a transaction of its own: none can span the call.
    const log = (outcome: string) =>
      store.auditLog.record(actorOf(ctx), {
        action: 'service.action',
        target: `host ${hostId} ${host.hostname}`,
        detail: detailOf({ action: what, services, outcome })
      })
    try {
      await agentCall(() => underPin(hosts, host, client, () => client.doAction(what, services)))
    } catch (err) {
      log('failed')
      throw err
    }
    log('requested')
    return {}
  }

  return [
    endpoint({
      path: 'admin/hosts/test',
      summary: "Tests the connection to a host's agent (green or red, always 200)",
      answer: testOutcome,
      methods: ['GET', 'POST'],
      access: 'admin',
      // The M/Monit form (every argument given) stays a GET; one that sends a stored password is a POST
      // with the CSRF token, or any page an administrator opens could have it sent out.
      mutation: usesStoredPassword,
      params: testParams,
      handle: async ({ params: p }) => {
        const target = { host: p.ipaddr, port: p.port, ssl: p.ssl === 1 }
        const host = p.id === undefined ? undefined : hosts.find(p.id)
        if (p.id !== undefined && !host) throw new HttpError(404, `no host with id ${p.id}`)
        // The host's own agent is held to its pinned certificate; another address is only reported.
        const own = host !== undefined && isOwnCallBack(host, target) ? host : undefined
        const client = new AgentClient({
          ...target,
          ...testCredentials(p, target, host, secrets),
          ...(own && { certificateSha256: own.agent_cert_sha256 }),
          ...timeouts
        })
        try {
          await (own ? underPin(hosts, own, client, () => client.ping()) : client.ping())
          const certificate = client.peerCertificateSha256 ? ` (certificate SHA-256 ${client.peerCertificateSha256})` : ''
          return { status: 'green' as const, description: `Connected to Monit at ${client.address}${certificate}` }
        } catch (err) {
          // green/red is the outcome the spec defines, so a failed test is still a 200.
          if (err instanceof AgentError) return { status: 'red' as const, description: err.message }
          throw err
        }
      }
    }),
    endpoint({
      path: 'admin/hosts/action',
      summary: "Has the host's agent run a service action",
      answer: emptyAnswer,
      methods: ['POST'],
      mutation: true,
      params: { id: arg.int(), action, service: z.array(arg.required(255)).min(1, 'at least one service is required') },
      handle: (ctx) => act(ctx, ctx.params.id, () => serviceNames(store, ctx.params.id, ctx.params.service, false), ctx.params.action)
    }),
    endpoint({
      path: 'action/service',
      summary: "Has the host's agent run a service action (services by name or id)",
      answer: emptyAnswer,
      methods: ['POST'],
      mutation: true,
      params: { hostid: arg.int(), action, service: z.array(arg.required(255)).min(1, 'at least one service is required') },
      handle: (ctx) =>
        act(ctx, ctx.params.hostid, () => serviceNames(store, ctx.params.hostid, ctx.params.service, true), ctx.params.action)
    })
  ]
}

/** A test naming a host `id` and no password: the host's stored password would be sent. */
function usesStoredPassword(raw: RawParams): boolean {
  const given = (name: string) => (raw.get(name) ?? []).some((v) => v !== '')
  return given('id') && !given('agentpassword') && !given('monitpassword')
}

/**
 * Who admin/hosts/test calls the agent as. With a host `id` (the console's host editor), what is left
 * out comes from that host's stored credentials: the editor never shows the stored password, so an
 * empty one means "unchanged", as admin/hosts/update takes it, not an empty password. The stored
 * password only goes where the host's agent is (its reported or its overridden call-back, with the
 * same TLS setting): a request naming another address must carry the password itself.
 */
function testCredentials(
  p: TestParams,
  target: Pick<AgentTarget, 'host' | 'port' | 'ssl'>,
  host: HostRow | undefined,
  secrets: SecretBox
): Pick<AgentTarget, 'user' | 'password'> {
  const user = p.agentuser ?? p.monituser
  const password = p.agentpassword ?? p.monitpassword ?? ''
  if (host === undefined) return { user: user ?? '', password }
  if (password !== '') return { user: user ?? host.agent_user, password }
  if (!isOwnCallBack(host, target)) {
    const own = knownCallBacks(host)
    throw new HttpError(
      400,
      `the stored agent password is only sent to host ${host.hostname}'s own address (${own.map(describe).join(' or ') || 'none known'}): ` +
        'type the password to test another address'
    )
  }
  return { user: user ?? host.agent_user, password: secrets.open(host.agent_password) }
}

/**
 * A call to the host's own agent under its certificate pin: trust on first use pins what the agent
 * presented; another certificate (refused by the client before it sent anything) waits for an administrator.
 */
async function underPin(hosts: HostAdminRepository, host: HostRow, client: AgentClient, call: () => Promise<void>): Promise<void> {
  try {
    await call()
  } catch (err) {
    if (err instanceof CertificateChangedError) hosts.sawCertificate(host.id, err.presentedSha256)
    throw err
  } finally {
    const presented = client.peerCertificateSha256
    if (host.agent_cert_sha256 === '' && presented) hosts.pinCertificate(host.id, presented)
  }
}

function isOwnCallBack(host: HostRow, target: Pick<AgentTarget, 'host' | 'port' | 'ssl'>): boolean {
  return knownCallBacks(host).some((c) => c.ipaddr === target.host && c.port === target.port && c.ssl === target.ssl)
}

interface CallBack {
  ipaddr: string
  port: number
  ssl: boolean
}

/** Where a host's agent is known to be: the administrator's override, and what the agent reported. */
function knownCallBacks(host: HostRow): CallBack[] {
  const reported = { ipaddr: host.ipaddr_in, port: host.port_in, ssl: host.ssl_in === 1 }
  const effective = callBack(
    { ipaddrout: host.ipaddr_out, portout: host.port_out, sslout: host.ssl_out },
    { ipaddrin: host.ipaddr_in, portin: host.port_in, sslin: host.ssl_in }
  )
  const known = [reported, effective].filter((c) => c.ipaddr !== '' && c.port > 0)
  return known.filter((c, i) => known.findIndex((k) => describe(k) === describe(c)) === i)
}

function describe(c: CallBack): string {
  return `${c.ipaddr}:${c.port}${c.ssl ? ' with TLS' : ''}`
}

/**
 * The names to send, each a service of the host (404 otherwise): the agent would take an unknown
 * name as a regular expression (§5.3). With `byId`, an all-digit value naming a service id of the
 * host stands for that service (compat 6.13).
 */
function serviceNames(store: Store, hostId: number, values: readonly string[], byId: boolean): string[] {
  const services = store.services.ofHost(hostId)
  return values.map((v) => {
    const found = (byId && /^\d+$/.test(v) ? services.find((s) => s.id === Number(v)) : undefined) ?? services.find((s) => s.name === v)
    if (!found) throw new HttpError(404, `no service named "${v}" on host ${hostId}`)
    return found.name
  })
}

/** The administrator's call-back overrides when set, else what the agent reported (admin/hosts/update). */
function callBackTarget(host: HostRow, secrets: SecretBox): AgentTarget {
  const { ipaddr, port, ssl } = callBack(
    { ipaddrout: host.ipaddr_out, portout: host.port_out, sslout: host.ssl_out },
    { ipaddrin: host.ipaddr_in, portin: host.port_in, sslin: host.ssl_in }
  )
  if (ipaddr === '' || port <= 0) {
    throw new HttpError(
      400,
      `host ${host.hostname} has no Monit httpd reachable over TCP: enable "set httpd port … address …" on the agent, or set its address and port`
    )
  }
  return { host: ipaddr, port, ssl, user: host.agent_user, password: secrets.open(host.agent_password) }
}

/** Agent failures are the caller's to fix (address, credentials, service): 400 with the classified reason. */
async function agentCall(call: () => Promise<void>): Promise<void> {
  try {
    await call()
  } catch (err) {
    if (err instanceof AgentError) throw new HttpError(400, err.message)
    throw err
  }
}
