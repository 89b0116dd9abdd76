// A small client for a Monit agent's httpd (agent protocol §5): liveness, identity and service actions.
// Monit's httpd speaks HTTP/1.0 with `Connection: close`, so each call is one request on its own
// connection, written by hand: Node's http client always sends HTTP/1.1.
import { randomBytes } from 'node:crypto'
import net from 'node:net'
import tls from 'node:tls'
import { serviceActions, type ServiceAction } from '../../shared/api/hosts'
import type { MonitMessage } from '../monit/message'
import { MessageParseError, parseMonitMessage } from '../monit/parse-message'
import { AgentError, CertificateChangedError, classifySocketError, classifyStatus } from './errors'
import { parseResponse, type AgentResponse } from './response'

export { AgentError, CertificateChangedError, type AgentErrorKind } from './errors'
export type { AgentResponse } from './response'

/** The only actions offered (§6 item 8, shared/api/hosts); `alert`, `exec` and `ignore` pass Monit's parser but do nothing useful. */
export function isAgentAction(s: string): s is ServiceAction {
  return (serviceActions as readonly string[]).includes(s)
}

export interface AgentTarget {
  host: string
  port: number
  ssl: boolean
  /** '' sends no Authorization header (an agent without `allow user:password`). */
  user: string
  password: string
  /** Default 5 s, Monit's own default timeout. */
  connectTimeoutMs?: number
  /** From the request being sent to the complete answer. Default 5 s. */
  responseTimeoutMs?: number
  /**
   * Default false, deliberately: agents' httpd certificates are almost always self-signed (§5.1, §6
   * item 9), so CA verification would make HTTPS agents unreachable; they are pinned instead
   * (certificateSha256). A parameter so it can be tightened.
   */
  rejectUnauthorized?: boolean
  /**
   * TLS: the SHA-256 fingerprint (`AB:CD:…`, as node:tls gives it) the agent's certificate must have; any
   * other is refused right after the handshake, before the request (and its Authorization header) is
   * written. '' or absent: any certificate, which the caller learns from peerCertificateSha256 to pin it.
   */
  certificateSha256?: string
}

const DEFAULT_TIMEOUT_MS = 5_000
/** Answers are tiny (pong, an id, an empty 302); a larger one is not from a Monit agent. */
const MAX_RESPONSE_BYTES = 256 * 1024
/** The status document grows with the agent's services: allow what the collector allows. */
const MAX_STATUS_BYTES = 4 * 1024 * 1024

export class AgentClient {
  /** The SHA-256 fingerprint of the certificate the agent presented on the latest TLS call. */
  peerCertificateSha256: string | undefined

  constructor(readonly target: AgentTarget) {}

  /** Where the agent is, for messages: host:port, IPv6 in brackets. */
  get address(): string {
    return `${net.isIPv6(this.target.host) ? `[${this.target.host}]` : this.target.host}:${this.target.port}`
  }

  /** Resolves when the agent answers `200 pong`. */
  async ping(): Promise<void> {
    const res = await this.expect200('GET', '/_ping')
    if (res.body.trim() !== 'pong') throw this.notMonit('/_ping did not answer pong')
  }

  /** The agent's `<monit id>` (§5.4 step 2: is it still the same agent?). */
  async getId(): Promise<string> {
    const id = (await this.expect200('GET', '/_getid')).body.trim()
    if (!/^[\w-]{1,128}$/.test(id)) throw this.notMonit('/_getid did not answer an agent id')
    return id
  }

  /** The agent's current status document, as it sent it (§4.8: the collector's format, without an event). */
  async statusDocument(): Promise<Buffer> {
    return (await this.expect200('GET', '/_status2?format=xml', MAX_STATUS_BYTES)).raw
  }

  /** The agent's current status, read fresh (§5.4 step 3): the collector's format, without an event. */
  async status(): Promise<MonitMessage> {
    const raw = await this.statusDocument()
    try {
      return parseMonitMessage(raw)
    } catch (err) {
      if (err instanceof MessageParseError) throw this.notMonit(`/_status2 is not Monit's status XML (${err.message})`)
      throw err
    }
  }

  /**
   * Schedules `action` on the services (§5.3). Resolves when the agent accepted it (302); completion
   * arrives later as an "<action> action done" event through the collector.
   */
  async doAction(action: string, services: readonly string[]): Promise<void> {
    // Monit answers 302 and does nothing without an action or a service: validate here (§5.3).
    if (!isAgentAction(action)) throw new AgentError('invalid', `invalid action "${action}": expected one of ${serviceActions.join(', ')}`)
    if (services.length === 0) throw new AgentError('invalid', 'no service given')
    // Double-submit CSRF token: any value works if cookie and body agree; fresh per request as Monit's CLI does.
    const token = randomBytes(16).toString('hex')
    const body = new URLSearchParams([
      ['securitytoken', token],
      ['action', action],
      ...services.map((s): [string, string] => ['service', s])
    ])
    const res = await this.request('POST', '/_doaction', body.toString(), {
      Cookie: `securitytoken=${token}`,
      'Content-Type': 'application/x-www-form-urlencoded'
    })
    if (res.status === 302) return
    throw classifyStatus(res, this.address, this.target.user, true)
  }

  private async expect200(method: string, path: string, maxBytes = MAX_RESPONSE_BYTES): Promise<AgentResponse> {
    const res = await this.request(method, path, '', {}, maxBytes)
    if (res.status === 200) return res
    throw classifyStatus(res, this.address, this.target.user, false)
  }

  private notMonit(why: string): AgentError {
    return new AgentError('not-monit', `${this.address} is not a Monit agent: ${why}`)
  }

  /** One HTTP/1.0 exchange on a fresh connection. */
  request(
    method: string,
    path: string,
    body = '',
    headers: Record<string, string> = {},
    maxBytes = MAX_RESPONSE_BYTES
  ): Promise<AgentResponse> {
    const t = this.target
    const connectMs = t.connectTimeoutMs ?? DEFAULT_TIMEOUT_MS
    const responseMs = t.responseTimeoutMs ?? DEFAULT_TIMEOUT_MS
    const head = this.requestHead(method, path, Buffer.byteLength(body), headers)
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = []
      let size = 0
      let timer: NodeJS.Timeout | undefined
      let done = false
      const finish = (err: AgentError | undefined, res?: AgentResponse) => {
        if (done) return
        done = true
        clearTimeout(timer)
        socket.destroy()
        if (err) reject(err)
        else resolve(res as AgentResponse)
      }
      const arm = (ms: number, message: string) => {
        clearTimeout(timer)
        timer = setTimeout(() => finish(new AgentError('timeout', message)), ms)
      }
      const socket = t.ssl
        ? tls.connect({
            host: t.host,
            port: t.port,
            rejectUnauthorized: t.rejectUnauthorized ?? false,
            servername: net.isIP(t.host) ? undefined : t.host
          })
        : net.connect({ host: t.host, port: t.port })
      arm(connectMs, `timed out connecting to ${this.address} after ${connectMs / 1000} s (wrong address or port, or a firewall)`)
      socket.once(t.ssl ? 'secureConnect' : 'connect', () => {
        if (socket instanceof tls.TLSSocket) {
          const presented = socket.getPeerX509Certificate()?.fingerprint256 ?? ''
          this.peerCertificateSha256 = presented
          const pinned = t.certificateSha256 ?? ''
          if (pinned !== '' && presented !== pinned) return finish(new CertificateChangedError(this.address, presented || 'none', pinned))
        }
        arm(responseMs, `${this.address} did not answer within ${responseMs / 1000} s`)
        // write, not end: a half-close makes some servers drop the request; Monit reads Content-Length.
        socket.write(head + body)
      })
      socket.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > maxBytes) return finish(this.notMonit('the answer is too large'))
        chunks.push(chunk)
      })
      socket.on('end', () => {
        const parsed = parseResponse(Buffer.concat(chunks))
        if (typeof parsed === 'string') finish(this.notMonit(parsed))
        else finish(undefined, parsed)
      })
      socket.on('error', (err: NodeJS.ErrnoException) => finish(classifySocketError(err, this.address, t.ssl)))
    })
  }

  private requestHead(method: string, path: string, length: number, extra: Record<string, string>): string {
    const { user, password } = this.target
    const headers: Record<string, string> = {
      Host: this.address,
      'User-Agent': 'overseer',
      ...(user !== '' && { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` }),
      ...extra,
      ...(method === 'POST' && { 'Content-Length': String(length) }),
      Connection: 'close'
    }
    return `${method} ${path} HTTP/1.0\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`
  }
}
