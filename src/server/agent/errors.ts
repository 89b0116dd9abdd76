// Agent call failures, classified so that an administrator knows what to fix.
import type { AgentResponse } from './response'
import { agentMessage } from './response'

export type AgentErrorKind =
  'refused' | 'timeout' | 'unreachable' | 'credentials' | 'read-only' | 'not-monit' | 'tls' | 'certificate-changed' | 'agent' | 'invalid'

export class AgentError extends Error {
  constructor(
    readonly kind: AgentErrorKind,
    message: string
  ) {
    super(message)
    this.name = 'AgentError'
  }
}

/** The agent's httpd presented another certificate than the pinned one: nothing was sent to it. */
export class CertificateChangedError extends AgentError {
  constructor(
    address: string,
    readonly presentedSha256: string,
    pinnedSha256: string
  ) {
    super(
      'certificate-changed',
      `the agent at ${address} presented another certificate (SHA-256 ${presentedSha256}) than the one pinned (SHA-256 ${pinnedSha256}): ` +
        'nothing was sent to it; if the agent got a new certificate, an administrator must accept it in the host editor'
    )
  }
}

/** An error status from the agent (anything but the expected 200 or 302). */
export function classifyStatus(res: AgentResponse, address: string, user: string, action: boolean): AgentError {
  const message = agentMessage(res.body)
  const monit = /^monit\b/i.test(res.headers.get('server') ?? '') || message !== undefined
  switch (res.status) {
    case 401:
      return new AgentError(
        'credentials',
        `bad credentials: the agent at ${address} rejected ${user === '' ? 'the request without credentials' : `user '${user}'`}`
      )
    case 403:
      // A CSRF failure is ours, not the user's; any other 403 on an action is a read-only user (§5.1).
      if (action && !/csrf/i.test(message ?? '')) {
        return new AgentError('read-only', `user '${user}' is read-only on the agent at ${address}: ${message ?? 'forbidden'}`)
      }
      return new AgentError('agent', `the agent at ${address} refused: ${message ?? 'forbidden'}`)
    case 400:
      if (monit) return new AgentError('agent', message ?? `the agent at ${address} rejected the request`)
  }
  return new AgentError(
    'not-monit',
    monit
      ? `unexpected answer HTTP ${res.status} from the agent at ${address}${message ? `: ${message}` : ''}`
      : `${address} is not a Monit agent: it answered HTTP ${res.status}`
  )
}

const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|UNABLE_TO_|HOSTNAME_MISMATCH|ERR_OSSL_)/

/** A connection-level failure. */
export function classifySocketError(err: NodeJS.ErrnoException, address: string, ssl: boolean): AgentError {
  const code = err.code ?? ''
  if (code === 'ECONNREFUSED') {
    return new AgentError('refused', `connection refused by ${address} (is Monit's httpd listening there?)`)
  }
  if (['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'].includes(code)) {
    return new AgentError(
      'unreachable',
      `cannot reach ${address}: ${code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'unknown host name' : 'no route to host'}`
    )
  }
  if (code === 'ETIMEDOUT') return new AgentError('timeout', `timed out connecting to ${address}`)
  if (ssl && (TLS_CODE.test(code) || code === 'EPROTO' || /ssl|tls|certificate/i.test(err.message))) {
    return new AgentError('tls', `TLS error with ${address}: ${err.message} (does the agent's httpd use SSL?)`)
  }
  if (code === 'ECONNRESET' || code === 'EPIPE') {
    return new AgentError(
      'refused',
      `${address} closed the connection (does the agent's allow list admit this server${ssl ? '' : ', or does it expect SSL'}?)`
    )
  }
  return new AgentError('unreachable', `cannot talk to ${address}: ${err.message}`)
}
