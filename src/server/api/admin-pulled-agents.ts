// admin/pulled/list|create|delete (issue 30 §1, our extension, administrators): the Monit agents the server
// reads from their httpd (jobs/pull-job.ts). The password is sealed at rest and never answered; it is only
// ever sent to the address it was given with, so changing an address means adding the agent again.
import net from 'node:net'
import { createdAnswer } from '../../shared/api/common'
import { arg } from '../../shared/api/args'
import {
  DEFAULT_PULL_POLL_SEC,
  MONIT_HTTPD_PORT,
  PULL_POLL_LIMITS,
  PULLED_CREDENTIAL_MAX,
  PULLED_URL_MAX,
  pulledAgentList,
  type PulledAgent
} from '../../shared/api/pulled-agents'
import { endpoint, type ApiEndpoint } from '../http/api'
import { badArgument, HttpError } from '../http/errors'
import type { ListedPulledAgent } from '../store/pulled-agents'
import { actorOf, detailOf, removalEndpoint } from './audit'
import type { ApiDeps } from './deps'

/** The bound on the table (each row is a poll every few seconds). */
export const MAX_PULLED_AGENTS = 10_000

export function adminPulledAgentEndpoints({ store, secrets }: ApiDeps): ApiEndpoint[] {
  const agents = store.pulledAgents
  return [
    endpoint({
      path: 'admin/pulled/list',
      summary: 'The agents the server reads from their httpd, and what their last poll found',
      extension: true,
      answer: pulledAgentList,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: {},
      handle: () => ({ records: agents.list().map(record) })
    }),
    endpoint({
      path: 'admin/pulled/create',
      summary: 'Adds an agent to read from its httpd (its URL and credentials); 409 when it is there already',
      extension: true,
      answer: createdAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: {
        url: arg.required(PULLED_URL_MAX),
        username: arg.text(PULLED_CREDENTIAL_MAX).optional(),
        password: arg.text(PULLED_CREDENTIAL_MAX).optional(),
        poll: arg
          .intIn(PULL_POLL_LIMITS.min, PULL_POLL_LIMITS.max, `seconds from ${PULL_POLL_LIMITS.min} to ${PULL_POLL_LIMITS.max}`)
          .optional()
      },
      handle: (ctx) => {
        const p = ctx.params
        const target = httpdOf(p.url)
        if (agents.count() >= MAX_PULLED_AGENTS) throw new HttpError(409, `at most ${MAX_PULLED_AGENTS} agents can be pulled`)
        const what = (id: number | undefined) => ({
          action: 'pulled-agent.create',
          target: `pulled-agent ${id ?? '-'}`,
          detail: detailOf({ url: p.url, username: p.username, password: p.password, poll: p.poll })
        })
        const id = store.auditLog.recording(actorOf(ctx), what, () =>
          agents.create({
            ...target,
            username: p.username ?? '',
            password: secrets.seal(p.password ?? ''),
            pollSec: p.poll ?? DEFAULT_PULL_POLL_SEC,
            createdAt: Math.floor(Date.now() / 1000)
          })
        )
        if (id === undefined) throw new HttpError(409, `an agent at ${p.url} is pulled already`)
        return { id }
      }
    }),
    removalEndpoint(store.auditLog, {
      path: 'admin/pulled/delete',
      summary: 'Stops reading an agent (its host and history stay)',
      entity: 'pulled-agent',
      remove: (id) => agents.remove(id)
    })
  ]
}

/** An httpd URL: http or https, a host, an optional port, nothing else (credentials go in their own fields). */
function httpdOf(text: string): { address: string; port: number; ssl: boolean } {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw badArgument('url', 'expected an http:// or https:// URL of the agent, e.g. https://10.0.0.5:2812')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badArgument('url', 'expected http:// or https://')
  if (url.username || url.password) throw badArgument('url', 'give the credentials as username and password, not in the URL')
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    throw badArgument('url', "expected the agent's address only, without a path")
  const address = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (!address) throw badArgument('url', 'has no host')
  return { address, port: url.port === '' ? MONIT_HTTPD_PORT : Number(url.port), ssl: url.protocol === 'https:' }
}

function record(a: ListedPulledAgent): PulledAgent {
  const host = net.isIPv6(a.address) ? `[${a.address}]` : a.address
  return {
    id: a.id,
    url: `${a.ssl === 1 ? 'https' : 'http'}://${host}:${a.port}`,
    username: a.username,
    certificate: a.certificate_sha256,
    poll: a.poll_sec,
    agentid: a.agent_id,
    hostid: a.host_id,
    hostname: a.hostname,
    createdat: a.created_at,
    polledat: a.polled_at,
    answeredat: a.answered_at,
    error: a.error
  }
}
