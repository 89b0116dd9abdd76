// First-run setup (our extension): while no user exists, the person at the server machine creates the
// administrator and the collector user from the console, without a session. Only from a loopback
// address, only with a loopback Host header (a web page cannot reach it through DNS rebinding), only as
// JSON (a cross-site form cannot post it without a CORS preflight, which is never granted), and only
// while the user table is empty: the check and the inserts run in one transaction, so of two tabs
// racing, exactly one creates the administrator.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { setupRequest } from '../../shared/api/setup'
import { digestPassword } from '../auth/passwords'
import { BUILTIN_ROLE, type UserRepository } from '../store/users'
import type { Store } from '../store/store'
import { HttpError } from './errors'
import { urlsOfServer } from './listening-urls'

export type SetupState = 'open' | 'done' | 'remote'

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 addresses. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || address === '::1'
}

/** A Host header naming this machine's loopback interface (localhost, 127.x, [::1]), any port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '')
  return name.toLowerCase() === 'localhost' || name === '[::1]' || isLoopbackAddress(name)
}

export function setupState(request: FastifyRequest, users: UserRepository): SetupState {
  if (users.count() > 0) return 'done'
  return isLoopbackAddress(request.socket.remoteAddress) && isLoopbackHost(request.headers.host) ? 'open' : 'remote'
}

const DONE = 'setup is done: an administrator exists, log in instead'
const REMOTE = 'first-run setup is only possible in a browser on the server machine itself (http://127.0.0.1 or http://localhost)'

function assertOpen(request: FastifyRequest, users: UserRepository): void {
  const state = setupState(request, users)
  if (state === 'done') throw new HttpError(409, DONE)
  if (state === 'remote') throw new HttpError(403, REMOTE)
}

function readBody(body: unknown): z.output<typeof setupRequest> {
  const parsed = setupRequest.safeParse(body ?? {})
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const name = String(issue.path[0] ?? 'body')
  const message = issue.code === 'invalid_type' ? (issue.path.length ? 'is required' : 'expected a JSON object') : issue.message
  throw new HttpError(400, `invalid argument '${name}': ${message}`)
}

export async function setupRoutes(app: FastifyInstance, { store }: { store: Store }): Promise<void> {
  const { users } = store
  app.get('/api/2/setup/status', async (request) => {
    assertOpen(request, users)
    return { setup: 'open', urls: urlsOfServer(request.server.server) }
  })

  app.post('/api/2/setup/complete', async (request, reply) => {
    assertOpen(request, users)
    if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
      throw new HttpError(415, 'send the setup as application/json')
    }
    const p = readBody(request.body)
    const created = store.transaction(() => {
      // Checked again inside the transaction: the one that commits first wins, the other gets 409.
      if (users.count() > 0) throw new HttpError(409, DONE)
      const admin = users.create({
        uname: p.adminuname, password: digestPassword(p.adminpassword), fullname: p.adminfullname || 'Administrator', roleIds: [BUILTIN_ROLE.Administrator]
      })
      const collector = users.create({
        uname: p.collectoruname, password: digestPassword(p.collectorpassword), fullname: 'Monit collector', roleIds: [BUILTIN_ROLE.Collector]
      })
      return { admin: { id: admin, uname: p.adminuname }, collector: { id: collector, uname: p.collectoruname } }
    })
    return reply.send({ ...created, urls: urlsOfServer(request.server.server) })
  })
}
