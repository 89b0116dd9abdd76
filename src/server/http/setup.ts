// Whether first-run setup (api/setup.ts) is open to a request: only while no user exists, only from a
// loopback address, and only with a loopback Host header (a web page cannot reach it through DNS
// rebinding). The login pages ask too: on a fresh server they lead to the setup screen.
import type { FastifyRequest } from 'fastify'
import type { UserRepository } from '../store/users'
import { crossSite } from './browser-request'
import { HttpError } from './errors'

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
  // request.ip and .host: a trusted reverse proxy on this machine does not make every client local.
  return isLoopbackAddress(request.ip) && isLoopbackHost(request.host) ? 'open' : 'remote'
}

const DONE = 'setup is done: an administrator exists, log in instead'
const REMOTE = 'first-run setup is only possible in a browser on the server machine itself (http://127.0.0.1 or http://localhost)'

const CROSS_SITE = "first-run setup is only possible from the server's own page"

/**
 * Refuses setup once a user exists (409), from anywhere but this machine (403), and from a page of another
 * site (403: a page open in a browser on this machine would otherwise choose the administrator).
 */
export function assertSetupOpen(request: FastifyRequest, users: UserRepository): void {
  const state = setupState(request, users)
  if (state === 'done') throw setupDone()
  if (state === 'remote') throw new HttpError(403, REMOTE)
  if (crossSite(request)) throw new HttpError(403, CROSS_SITE)
}

/**
 * What the log says at start while no user exists: the address a browser on this machine opens to finish
 * setup, or, when the server listens on no loopback address, the flags that do it instead.
 */
export function firstRunHint(host: string, port: number, scheme: 'http' | 'https'): string {
  const flags = '--init-admin USER:PASSWORD --init-collector USER:PASSWORD'
  const wildcard = host === '0.0.0.0' || host === '::'
  const loopback = wildcard ? '127.0.0.1' : host === 'localhost' || isLoopbackAddress(host) ? host : undefined
  if (loopback === undefined) {
    return `no user exists yet, and first-run setup only answers on this machine's loopback address: restart with ${flags} (or --host 127.0.0.1 and open it in a browser here)`
  }
  const url = `${scheme}://${loopback.includes(':') ? `[${loopback}]` : loopback}:${port}/`
  return `no user exists yet: open ${url} in a browser on this machine to create the administrator and the agents' account (or restart with ${flags})`
}

export function setupDone(): HttpError {
  return new HttpError(409, DONE)
}
