// What every HTTP channel shares (webhook, slack, discord, ntfy, gotify, telegram): posting a request
// with the delivery's AbortSignal, and turning whatever happens into a SendResult in plain words —
// "Slack answered 404: no_service", "connection refused by 127.0.0.1:9", "timed out after 5.0 s waiting
// for ntfy.sh:443". Expected failures never throw. Error texts and logs name the host only, never the
// path or query: for Slack, Discord and Telegram the URL itself is the credential.
import type { AlertNotification, AlertState } from '../../../shared/api/alerts'
import type { SendResult } from '../channel'

/** The answer to a request, its body read up to MAX_ANSWER bytes. */
export interface HttpAnswer {
  status: number
  headers: Headers
  text: string
  ms: number
}

export interface HttpRequest {
  /** How errors name the other side: "Slack", "Telegram", or for a plain webhook its host */
  service: string
  url: URL
  method?: 'POST' | 'PUT'
  headers?: Record<string, string>
  body: string | Uint8Array
  contentType: string
  signal: AbortSignal
}

export type Posted = { ok: true; answer: HttpAnswer } | { ok: false; error: string }

/** More than any service's error text; the rest of a big answer is not read. */
const MAX_ANSWER = 64 * 1024
const USER_AGENT = 'Overseer (alerting)'

/** Sends one request; any HTTP answer is returned, a network failure or the abort becomes an error text. */
export async function postHttp(req: HttpRequest): Promise<Posted> {
  const started = performance.now()
  const where = hostPort(req.url)
  if (req.signal.aborted) return { ok: false, error: abortText(req.signal, where, 0) }
  try {
    const res = await fetch(req.url, {
      method: req.method ?? 'POST',
      headers: { 'User-Agent': USER_AGENT, ...req.headers, 'Content-Type': req.contentType },
      body: req.body as RequestInit['body'],
      signal: req.signal,
      // A redirected POST would silently become a GET elsewhere: say so instead (see failureText).
      redirect: 'manual'
    })
    const text = await readLimited(res)
    return { ok: true, answer: { status: res.status, headers: res.headers, text, ms: Math.round(performance.now() - started) } }
  } catch (err) {
    if (req.signal.aborted) return { ok: false, error: abortText(req.signal, where, performance.now() - started) }
    return { ok: false, error: networkText(err, where, req.url) }
  }
}

export interface DeliverOptions {
  /** The service's own error words in an answer (JSON fields, text); the default reads common shapes. */
  detail?: (answer: HttpAnswer) => string
  /** Extra check of a 2xx answer (Telegram's {"ok": false}); return an error text to refuse it. */
  check?: (answer: HttpAnswer) => string | undefined
}

/** postHttp, then 2xx = ok (with a short log line), anything else = "<service> answered <status>: <words>". */
export async function deliver(req: HttpRequest, options: DeliverOptions = {}): Promise<SendResult> {
  const posted = await postHttp(req)
  if (!posted.ok) return { ok: false, error: posted.error }
  const { answer } = posted
  const log = `${req.service} answered ${answer.status} in ${answer.ms} ms${answer.text.trim() ? `: ${excerpt(answer.text)}` : ''}`
  if (answer.status >= 200 && answer.status < 300) {
    const refused = options.check?.(answer)
    return refused === undefined ? { ok: true, log } : { ok: false, error: `${req.service} answered ${answer.status}: ${refused}`, log }
  }
  return { ok: false, error: failureText(req.service, answer, options.detail ?? errorDetail), log, retryAfterSec: retryAfter(answer) }
}

/** "<service> answered 429: You are being rate limited. (retry after 1.5 s)" */
export function failureText(service: string, answer: HttpAnswer, detail: (answer: HttpAnswer) => string = errorDetail): string {
  let words = detail(answer).trim()
  if (answer.status >= 300 && answer.status < 400) {
    const location = answer.headers.get('location')
    let to = ''
    try {
      if (location) to = ` to ${new URL(location, 'http://x.invalid').host}`
    } catch {
      /* no host to name */
    }
    words = `redirected${to}; set the channel's URL to the final address`
  }
  const retry = retryAfter(answer)
  return `${service} answered ${answer.status}${words ? `: ${words}` : ''}${retry === undefined ? '' : ` (retry after ${retry} s)`}`
}

/** Seconds to wait from a Retry-After header or a JSON retry_after (Discord, Telegram's parameters). */
export function retryAfter(answer: HttpAnswer): number | undefined {
  const json = parseJson(answer.text) as { retry_after?: unknown; parameters?: { retry_after?: unknown } } | undefined
  const value = json?.retry_after ?? json?.parameters?.retry_after ?? answer.headers.get('retry-after')
  const seconds =
    typeof value === 'number' ? value : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : undefined
  return seconds === undefined ? undefined : Math.round(seconds * 10) / 10
}

/**
 * The words of an error answer: the message fields the services use (Discord "message", ntfy "error",
 * Gotify "error"/"errorDescription", Telegram "description", Mattermost "message"), else a short excerpt.
 */
export function errorDetail(answer: HttpAnswer): string {
  const json = parseJson(answer.text)
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const o = json as Record<string, unknown>
    const words = [o.description, o.error, o.errorDescription, o.message, o.detail].filter(
      (v): v is string => typeof v === 'string' && v.trim() !== ''
    )
    const unique = [...new Set(words.map((w) => w.trim()))]
    if (unique.length > 0)
      return excerpt(unique.join(': ') + (typeof o.code === 'number' && o.code !== answer.status ? ` (code ${o.code})` : ''))
  }
  return excerpt(answer.text)
}

/** One line, at most `max` characters. */
export function excerpt(text: string, max = 200): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), max)
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * `text` within `max` units of `measure` (UTF-16 code units by default, or e.g. UTF-8 bytes), cut
 * cleanly: never inside a character, at a line end when one is near, and ending with "…".
 */
export function truncate(text: string, max: number, measure: (s: string) => number = (s) => s.length): string {
  if (measure(text) <= max) return text
  const budget = max - measure('…')
  let out = ''
  let used = 0
  for (const ch of text) {
    const n = measure(ch)
    if (used + n > budget) break
    out += ch
    used += n
  }
  const lineEnd = out.lastIndexOf('\n')
  if (lineEnd >= out.length * 0.8) out = out.slice(0, lineEnd)
  return out.trimEnd() + '…'
}

export const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8')

/** The notification's console link when it is an absolute http(s) URL a phone or chat can open. */
export function absoluteLink(link: string): string | undefined {
  try {
    const url = new URL(link)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined
  } catch {
    return undefined
  }
}

/** `base` + path segments, keeping a base path (a server behind a prefix) and its query. */
export function joinUrl(base: string, ...segments: string[]): URL {
  const url = new URL(base)
  const path = url.pathname.replace(/\/+$/, '')
  url.pathname = [path, ...segments].join('/')
  return url
}

/** The state that matters most in a (grouped) notification: failed, else changed, else succeeded. */
export function worstState(notification: AlertNotification): AlertState {
  const states = new Set(notification.alerts.map((a) => a.state))
  return states.has('failed') ? 'failed' : states.has('changed') ? 'changed' : 'succeeded'
}

// ---- internals ----

async function readLimited(res: Response): Promise<string> {
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.byteLength
    if (size >= MAX_ANSWER) {
      await reader.cancel().catch(() => undefined)
      break
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER).toString('utf8')
}

function hostPort(url: URL): string {
  return url.port ? url.host : `${url.host}:${url.protocol === 'https:' ? 443 : 80}`
}

function abortText(signal: AbortSignal, where: string, ms: number): string {
  const reason: unknown = signal.reason
  const after = `after ${(ms / 1000).toFixed(1)} s`
  // AbortSignal.timeout() and a bare controller.abort() are both the delivery's time running out; an
  // Error with its own words (e.g. "server stopping") says why else the delivery was given up.
  const isTimeout = reason === undefined || (reason instanceof Error && (reason.name === 'TimeoutError' || reason.name === 'AbortError'))
  if (isTimeout) return `timed out ${after} waiting for ${where} to answer`
  const why = reason instanceof Error ? reason.message : String(reason)
  return `aborted ${after} waiting for ${where}: ${why}`
}

const NETWORK_WORDS: Record<string, (where: string) => string> = {
  ECONNREFUSED: (w) => `connection refused by ${w}`,
  ECONNRESET: (w) => `connection reset by ${w}`,
  EPIPE: (w) => `connection closed by ${w} while sending`,
  ENOTFOUND: (w) => `host not found: ${w.replace(/:\d+$/, '')}`,
  EAI_AGAIN: (w) => `host name lookup failed (temporarily) for ${w.replace(/:\d+$/, '')}`,
  EHOSTUNREACH: (w) => `host unreachable: ${w}`,
  ENETUNREACH: (w) => `network unreachable for ${w}`,
  ETIMEDOUT: (w) => `timed out connecting to ${w}`,
  UND_ERR_CONNECT_TIMEOUT: (w) => `timed out connecting to ${w}`,
  UND_ERR_SOCKET: (w) => `connection closed by ${w} before it answered`,
  UND_ERR_HEADERS_OVERFLOW: (w) => `${w} answered with headers too large`
}

function networkText(err: unknown, where: string, url: URL): string {
  // fetch() fails with TypeError("fetch failed") and the cause underneath: a system error with a code,
  // several of them (one per address tried), or a TLS error.
  let cause: unknown = err instanceof Error && err.cause !== undefined ? err.cause : err
  if (cause instanceof AggregateError && cause.errors.length > 0) cause = cause.errors[0]
  const code = typeof (cause as { code?: unknown })?.code === 'string' ? (cause as { code: string }).code : ''
  const words = NETWORK_WORDS[code]
  if (words) return words(where)
  const message = cause instanceof Error ? cause.message : String(cause)
  if (/certificate|tls|ssl/i.test(code + ' ' + message)) return `TLS error with ${where}: ${redact(message, url)}`
  return `request to ${where} failed: ${redact(message, url)}${code && !message.includes(code) ? ` (${code})` : ''}`
}

/** Error texts must not repeat a URL that carries a credential. */
function redact(text: string, url: URL): string {
  let out = text.split(url.href).join(`${url.origin}/…`)
  const path = url.pathname + url.search
  if (path.length > 1) out = out.split(path).join('/…')
  return out
}
