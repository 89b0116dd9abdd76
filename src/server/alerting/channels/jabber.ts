// The `jabber` channel (issue 13), as M/Monit offers: one XMPP chat message per recipient, sent through
// @xmpp/client. Each send is one short session: connect, TLS, SASL, bind, the messages, a ping whose answer
// proves the server has taken every message before it (a c2s stream is handled in order), then close.
//
// The connection itself is ours (a transport plugged into @xmpp/client): the library's own STARTTLS and
// direct TLS take no TLS options, and a channel must be able to trust a self-signed certificate
// (`tlsverify=false`), require STARTTLS instead of silently going on in clear, skip the HTTP host-meta
// lookup and say which step failed. The library does the rest: the stream, SASL (SCRAM-SHA-1 first),
// resource binding, stanzas.
//
// Settings (the API's arguments): jid, password (secret), to (repeatable); optional host and port (instead
// of the domain's SRV records), security starttls (default) | tls (direct TLS, XEP-0368) | none (no TLS,
// trusted networks only), tlsverify (default true: the certificate must be valid for the jid's domain).
import { EventEmitter } from 'node:events'
import { promises as dns } from 'node:dns'
import net from 'node:net'
import tls from 'node:tls'
import type { Transport, XmlElement, XmppClient } from '@xmpp/client'
import { jabberSettings, type JabberSettings } from '../../../shared/alert-channel-settings/jabber'
import type { ChannelType, SendResult } from '../channel'

const NS_STREAM = 'http://etherx.jabber.org/streams'
const NS_TLS = 'urn:ietf:params:xml:ns:xmpp-tls'
const NS_SASL = 'urn:ietf:params:xml:ns:xmpp-sasl'
/** A whole send gives up after this even when the caller's signal does not. */
export const JABBER_TIMEOUT_MS = 30_000
/** The library's bound on single steps (stream open, close). */
const STEP_TIMEOUT_MS = 10_000

// The settings' rules are shared with the console (its tests read them from here).
export { jabberSettings, type JabberSettings }

/** A clear, expected failure: its message is the channel's error text. */
class JabberError extends Error {}

interface Target {
  host: string
  port: number
}

/** Where to connect: the host override, else the domain's SRV records (RFC 6120 §3.2), else the domain. */
async function targetsOf(settings: JabberSettings, domain: string): Promise<Target[]> {
  const defaultPort = settings.security === 'tls' ? 5223 : 5222
  if (settings.host) return [{ host: settings.host, port: settings.port ?? defaultPort }]
  if (settings.port !== undefined || net.isIP(domain)) return [{ host: domain, port: settings.port ?? defaultPort }]
  const service = settings.security === 'tls' ? '_xmpps-client._tcp.' : '_xmpp-client._tcp.'
  let records: Awaited<ReturnType<typeof dns.resolveSrv>> = []
  try {
    records = await dns.resolveSrv(service + domain)
  } catch {
    // no SRV records (or no DNS answer): the domain itself, as RFC 6120 §3.2.2 says
  }
  if (records.length === 1 && records[0].name === '.')
    throw new JabberError(`${domain} says it offers no XMPP client service (SRV ${service}${domain} is ".")`)
  if (records.length === 0) return [{ host: domain, port: defaultPort }]
  return records
    .sort((a, b) => a.priority - b.priority || b.weight - a.weight)
    .map((r) => ({ host: r.name.replace(/\.$/, ''), port: r.port }))
}

function describeSocketError(err: NodeJS.ErrnoException, target: Target): string {
  const where = `${target.host}:${target.port}`
  switch (err.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${where}: is the XMPP server running and listening there?`
    case 'ENOTFOUND':
    case 'EAI_NONAME':
    case 'EAI_NODATA':
      return `host not found: ${target.host}`
    case 'EAI_AGAIN':
      return `host not found: ${target.host} (temporary DNS failure)`
    case 'ETIMEDOUT':
      return `timed out connecting to ${where}`
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} is unreachable (${err.code})`
    case 'ECONNRESET':
      return `${where} reset the connection`
    default:
      return `${where}: ${err.message}`
  }
}

const CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED'
])

function describeTlsError(err: NodeJS.ErrnoException, target: Target, domain: string): string {
  const where = `${target.host}:${target.port}`
  if (err.code && CERT_CODES.has(err.code)) {
    return `the TLS certificate of ${where} is not trusted for ${domain}: ${err.message} (tlsverify=false accepts it, e.g. a self-signed certificate)`
  }
  return `TLS with ${where} failed: ${err.message}`
}

/** Settings of one connection, shared by the socket our transport creates. */
interface Plan {
  domain: string
  targets: Target[]
  security: JabberSettings['security']
  tlsverify: boolean
  /** What the session is doing, for error texts. */
  phase: { text: string }
  sockets: Set<net.Socket>
  /** The target the socket reached */
  connected?: Target
}

/**
 * The socket the library writes to and reads from: TCP to the first target that answers, then STARTTLS
 * (negotiated here, before the library's stream starts) or direct TLS, or nothing (security=none). Not a
 * net.Socket, so the library's own STARTTLS never runs.
 */
function socketClass(plan: Plan, parserClass: Transport['prototype']['Parser']) {
  return class JabberSocket extends EventEmitter {
    secure = false
    socket: net.Socket | null = null

    connect() {
      this.open().then(
        (socket) => {
          this.socket = socket
          this.secure = socket instanceof tls.TLSSocket
          socket.on('data', (data) => this.emit('data', data))
          socket.on('error', (err) => this.emit('error', err))
          socket.on('close', () => this.emit('close'))
          this.emit('connect')
        },
        (err) => this.emit('error', err)
      )
    }

    private async open(): Promise<net.Socket> {
      let lastError = new JabberError('no server to connect to')
      for (const target of plan.targets) {
        plan.phase.text = `connecting to ${target.host}:${target.port}`
        let raw: net.Socket
        try {
          raw = await tcpConnect(target, plan.sockets)
        } catch (err) {
          lastError = new JabberError(describeSocketError(err as NodeJS.ErrnoException, target))
          continue
        }
        plan.connected = target
        const opening = `opening the XMPP stream with ${target.host}:${target.port}`
        if (plan.security === 'none') {
          plan.phase.text = opening
          return raw
        }
        if (plan.security === 'starttls') await startTls(raw, target, plan, parserClass)
        plan.phase.text = `doing the TLS handshake with ${target.host}:${target.port}`
        const secure = await tlsUpgrade(raw, target, plan)
        plan.phase.text = opening
        return secure
      }
      throw lastError
    }

    write(data: string, callback: (err?: Error | null) => void) {
      if (!this.socket) return callback(new Error('not connected'))
      this.socket.write(data, callback)
    }

    end() {
      this.socket?.end()
    }
  }
}

function tcpConnect(target: Target, sockets: Set<net.Socket>): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: target.host, port: target.port })
    sockets.add(socket)
    socket.once('connect', () => {
      socket.off('error', reject)
      resolve(socket)
    })
    socket.once('error', reject)
  })
}

/** RFC 6120 §5: a stream on the plain socket until the server says <proceed/>. */
function startTls(raw: net.Socket, target: Target, plan: Plan, parserClass: Transport['prototype']['Parser']): Promise<void> {
  const where = `${target.host}:${target.port}`
  plan.phase.text = `waiting for the XMPP stream features of ${where} (STARTTLS)`
  return new Promise<void>((resolve, reject) => {
    const parser = new parserClass()
    const onData = (data: Buffer) => parser.write(data.toString('utf8'))
    const cleanup = () => {
      raw.off('data', onData)
      raw.off('error', onError)
      raw.off('close', onClose)
      parser.removeAllListeners()
    }
    const fail = (message: string) => {
      cleanup()
      raw.destroy()
      reject(new JabberError(message))
    }
    const onError = (err: NodeJS.ErrnoException) => fail(describeSocketError(err, target))
    const onClose = () => fail(`${where} closed the connection while ${plan.phase.text}`)
    parser.on('error', (err: Error) => fail(`${where} does not speak XMPP: ${err.message}`))
    parser.on('element', (el: XmlElement) => {
      if (el.is('error', NS_STREAM)) {
        const condition = el.getChildElements()[0]?.name ?? 'undefined-condition'
        const text = el.getChildText('text', 'urn:ietf:params:xml:ns:xmpp-streams')
        fail(`${where} refused the stream for ${plan.domain}: ${condition}${text ? ` (${text})` : ''}`)
      } else if (el.is('features', NS_STREAM)) {
        if (!el.getChild('starttls', NS_TLS)) {
          fail(`${where} does not offer STARTTLS: set security=none to send unencrypted, or security=tls for direct TLS`)
          return
        }
        plan.phase.text = `negotiating STARTTLS with ${where}`
        raw.write(`<starttls xmlns='${NS_TLS}'/>`)
      } else if (el.is('proceed', NS_TLS)) {
        cleanup()
        resolve()
      } else if (el.is('failure', NS_TLS)) {
        fail(`${where} refused STARTTLS`)
      }
    })
    raw.on('data', onData)
    raw.on('error', onError)
    raw.on('close', onClose)
    raw.write(
      `<?xml version='1.0'?><stream:stream to='${escapeAttr(plan.domain)}' version='1.0' xml:lang='en' ` +
        `xmlns='jabber:client' xmlns:stream='${NS_STREAM}'>`
    )
  })
}

function tlsUpgrade(raw: net.Socket, target: Target, plan: Plan): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      socket: raw,
      // The certificate must be valid for the XMPP domain (RFC 6120 §13.7.2), whatever host we reached.
      servername: net.isIP(plan.domain) ? undefined : plan.domain,
      host: plan.domain,
      rejectUnauthorized: plan.tlsverify
    })
    plan.sockets.add(socket)
    socket.once('secureConnect', () => {
      socket.off('error', onError)
      resolve(socket)
    })
    const onError = (err: NodeJS.ErrnoException) => {
      socket.destroy()
      reject(new JabberError(describeTlsError(err, target, plan.domain)))
    }
    socket.once('error', onError)
  })
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/'/g, '&apos;').replace(/</g, '&lt;').replace(/"/g, '&quot;')
}

/** The library's errors in the channel's words. */
function describe(err: unknown, settings: JabberSettings, phase: string): string {
  if (err instanceof JabberError) return err.message
  const e = err as Error & { condition?: string; text?: string; code?: string; name?: string }
  if (e?.name === 'SASLError') {
    if (e.condition === 'not-authorized')
      return `not-authorized: the server rejected the password for ${settings.jid} (or the account does not exist)`
    return `authentication failed for ${settings.jid}: ${e.condition}${e.text ? ` (${e.text})` : ''}`
  }
  if (e?.name === 'StreamError') return `the server ended the stream while ${phase}: ${e.condition}${e.text ? ` (${e.text})` : ''}`
  if (e?.name === 'StanzaError') return `the server answered an error while ${phase}: ${e.condition}${e.text ? ` (${e.text})` : ''}`
  if (e?.name === 'TimeoutError') return `timed out while ${phase}`
  if (e && typeof e.code === 'string') return `${phase}: ${e.message}`
  return `${phase}: ${e instanceof Error ? e.message : String(err)}`
}

/** Characters XML 1.0 cannot carry (a control character in a check's output would end the stream). */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu
/** Well under servers' stanza limits (prosody: 256 KiB by default). */
export const MAX_CHAT_CHARS = 60_000

/** The chat message's body: the subject, a blank line, the body (the body alone if it starts with the subject). */
export function chatText(subject: string, body: string): string {
  const s = subject.trim()
  const b = body.replace(/\s+$/, '')
  const text = (s && !b.startsWith(s) ? `${s}\n\n${b}` : b).replace(NOT_XML, '')
  return text.length > MAX_CHAT_CHARS ? `${text.slice(0, MAX_CHAT_CHARS)}\n… (truncated)` : text
}

export const jabber: ChannelType<JabberSettings> = {
  type: 'jabber',
  settings: jabberSettings,
  secretFields: ['password'],

  async send(settings, notification, message, context): Promise<SendResult> {
    // Loaded on the first send: a server that sends no chat message does not hold the library in memory.
    const { client: xmppClient, jid: parseJid, xml } = await import('@xmpp/client')
    const sender = parseJid(settings.jid)
    const domain = sender.domain
    const phase = { text: 'resolving the server' }
    const sockets = new Set<net.Socket>()
    const log: string[] = []
    const started = Date.now()
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(JABBER_TIMEOUT_MS)])
    let xmpp: XmppClient | undefined

    let stopAborting = () => {}
    const aborted = new Promise<never>((_, reject) => {
      const onAbort = () => {
        const reason = signal.reason as Error | undefined
        const seconds = ((Date.now() - started) / 1000).toFixed(1)
        reject(
          new JabberError(
            reason?.name === 'TimeoutError' || context.signal.reason?.name === 'TimeoutError'
              ? `timed out after ${seconds} s while ${phase.text}`
              : `aborted after ${seconds} s while ${phase.text}${reason?.message ? ` (${reason.message})` : ''}`
          )
        )
      }
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
      stopAborting = () => signal.removeEventListener('abort', onAbort)
    })
    aborted.catch(() => {})
    const step = <T>(p: Promise<T>): Promise<T> => Promise.race([p, aborted])

    try {
      const targets = await step(targetsOf(settings, domain))
      const plan: Plan = { domain, targets, security: settings.security, tlsverify: settings.tlsverify, phase, sockets }

      const bounced = new Map<string, string>()
      let closedEarly: (err: JabberError) => void = () => {}
      const closed = new Promise<never>((_, reject) => {
        closedEarly = reject
      })
      closed.catch(() => {})

      xmpp = xmppClient({
        service: 'xmpp://overseer.invalid',
        domain,
        username: sender.local,
        resource: `overseer-${Math.random().toString(36).slice(2, 10)}`,
        timeout: STEP_TIMEOUT_MS,
        credentials: async (authenticate, mechanisms, _fast, entity) => {
          phase.text = 'authenticating'
          // SCRAM first; PLAIN only on a TLS stream, or when the server offers nothing else (security=none)
          const mechanism = entity.isSecure() ? mechanisms[0] : (mechanisms.find((m) => m !== 'PLAIN') ?? mechanisms[0])
          log.push(`SASL ${mechanism} (offered: ${mechanisms.join(' ')})`)
          await authenticate({ username: sender.local, password: settings.password }, mechanism)
          phase.text = 'binding a resource'
        }
      })
      xmpp.reconnect.stop()
      const client = xmpp
      // Our transport only: no WebSocket, no library TLS, no host-meta lookup.
      const tcp = client.transports.find((t) => {
        try {
          return t.prototype.socketParameters('xmpp://overseer.invalid:5222') !== undefined
        } catch {
          return false
        }
      })
      if (!tcp) throw new JabberError('@xmpp/client offers no TCP transport')
      class JabberTransport extends (tcp as unknown as new () => object) {}
      const proto = (JabberTransport as unknown as Transport).prototype
      proto.socketParameters = (service: string) => (service.startsWith('xmpp://') ? {} : undefined)
      proto.Socket = socketClass(plan, tcp.prototype.Parser)
      client.transports.splice(0, client.transports.length, JabberTransport as unknown as Transport)

      let lastError: unknown
      client.on('error', (err: unknown) => {
        lastError = err
      })
      client.on('disconnect', () => {
        closedEarly(
          new JabberError(lastError ? describe(lastError, settings, phase.text) : `the server closed the connection while ${phase.text}`)
        )
      })
      client.on('nonza', (el: XmlElement) => {
        // security=none against a server that offers authentication only after STARTTLS: nothing to do
        if (
          el.is('features', NS_STREAM) &&
          !client.isSecure() &&
          el.getChild('starttls', NS_TLS) &&
          !el.getChild('mechanisms', NS_SASL) &&
          !el.getChild('bind', 'urn:ietf:params:xml:ns:xmpp-bind')
        ) {
          const where = plan.connected ? `${plan.connected.host}:${plan.connected.port}` : 'the server'
          closedEarly(new JabberError(`${where} requires TLS before authentication: set security=starttls (the default) or tls`))
        }
      })
      client.on('stanza', (stanza: XmlElement) => {
        if (stanza.name === 'message' && stanza.attrs.type === 'error') {
          const err = stanza.getChild('error')
          const condition = err?.getChildElements().find((c) => c.name !== 'text')?.name ?? 'error'
          const text = err?.getChildText('text', 'urn:ietf:params:xml:ns:xmpp-stanzas')
          bounced.set(stanza.attrs.from ?? '?', condition + (text ? ` (${text})` : ''))
        }
      })

      const live = <T>(p: Promise<T>) => step(Promise.race([p, closed]))
      await live(client.start())
      log.push(`online as ${settings.jid} on ${plan.connected?.host}:${plan.connected?.port}, ${client.isSecure() ? 'TLS' : 'unencrypted'}`)

      phase.text = 'sending the messages'
      const text = chatText(message.subject, message.body)
      for (const [i, to] of settings.to.entries()) {
        await live(client.send(xml('message', { type: 'chat', to, id: `${notification.id}-${i + 1}` }, xml('body', {}, text))))
      }
      phase.text = 'waiting for the server to take the messages'
      try {
        await live(
          client.iqCaller.request(xml('iq', { type: 'get', to: domain }, xml('ping', { xmlns: 'urn:xmpp:ping' })), STEP_TIMEOUT_MS)
        )
      } catch (err) {
        // an error answer is an answer: the server has handled every stanza before it
        if ((err as Error)?.name !== 'StanzaError') throw err
      }
      log.push(`sent to ${settings.to.join(', ')} in ${Date.now() - started} ms`)

      phase.text = 'closing the stream'
      await step(client.stop()).catch(() => {})
      xmpp = undefined

      if (bounced.size > 0) {
        const failed = [...bounced].map(([from, why]) => `${from}: ${why}`).join('; ')
        return {
          ok: false,
          error: `the server returned messages to ${bounced.size} of ${settings.to.length} recipients: ${failed}`,
          log: log.join('\n')
        }
      }
      return { ok: true, log: log.join('\n') }
    } catch (err) {
      return { ok: false, error: describe(err, settings, phase.text), log: log.join('\n') || undefined }
    } finally {
      stopAborting()
      if (xmpp) {
        xmpp.removeAllListeners('disconnect')
        xmpp.removeAllListeners('stanza')
        xmpp.removeAllListeners('nonza')
      }
      for (const socket of sockets) socket.destroy()
    }
  }
}
