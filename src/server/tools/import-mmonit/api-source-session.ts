// A session on M/Monit's HTTP API, opened the way its own clients open one (spec/mmonit-compat.md AUTH,
// CSRF): the login page's zsessionid cookie, the form login on /z_security_check with CSRF protection on,
// then the session's CSRFToken, sent as a header with every request. Reads only (GET). Every answer is
// bounded in time and size; the password of the URL is never shown.
import { SourceError } from '../../store/mmonit-source/source'
import { shownUrl } from '../../store/mmonit-source/source'

const REQUEST_TIMEOUT_MS = 30_000
/** One answer at most: an event page or a host's detail is far smaller. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024

export type QueryValue = string | number

/** The cause of the error a login page answer makes: the session is not (or no longer) logged in. */
const LOGIN_PAGE = 'login page'

export class MMonitApiSession {
  private constructor(
    private readonly base: string,
    /** The URL without its password: what errors show. */
    readonly shown: string,
    private readonly cookie: string,
    private readonly csrfToken: string
  ) {}

  /** Logs in as the URL's user; a SourceError saying why when it cannot. */
  static async login(url: string): Promise<MMonitApiSession> {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      throw new SourceError('the M/Monit URL is not valid: expected https://user:password@host:port')
    }
    const shown = shownUrl(parsed)
    if (!/^https?:$/.test(parsed.protocol) || parsed.username === '') {
      throw new SourceError(`${shown}: expected https://user:password@host:port (an M/Monit administrator)`)
    }
    const user = decodeURIComponent(parsed.username)
    const password = decodeURIComponent(parsed.password)
    const base = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`
    const fail = (why: string) => new SourceError(`${shown}: ${why}`)

    const page = await request(`${base}/index.csp`, {}, fail)
    const cookie = sessionCookie(page.headers)
    if (!cookie) throw fail('the server set no zsessionid cookie: is this M/Monit?')
    const form = new URLSearchParams({ z_username: user, z_password: password })
    const login = await request(
      `${base}/z_security_check`,
      { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() },
      fail
    )
    await login.body?.cancel()
    const refused = fail(`the login as ${user} was refused (wrong user name or password)`)
    // A failed login is a 401 here, an error page (200) or a redirect back to the login page elsewhere (AUTH-4).
    if (login.status === 401 || login.status === 403 || login.status === 200) throw refused
    if (login.status !== 302) throw fail(`the login answered ${login.status} instead of a redirect`)
    const session = new MMonitApiSession(base, shown, sessionCookie(login.headers) ?? cookie, '')
    const token = await session.get<{ CSRFToken?: string }>(1, 'session/get', { key: 'CSRFToken' }).catch((e: unknown) => {
      throw (e as Error).cause === LOGIN_PAGE ? refused : e
    })
    if (typeof token.CSRFToken !== 'string') throw fail('the session has no CSRFToken')
    return new MMonitApiSession(base, shown, session.cookie, token.CSRFToken)
  }

  /** GET {base}/api/{version}/{path}: its JSON answer. */
  async get<T>(version: 1 | 2, path: string, query: Record<string, QueryValue> = {}): Promise<T> {
    const fail = (why: string) => new SourceError(`${this.shown}: api/${version}/${path}: ${why}`)
    const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()
    const headers: Record<string, string> = { cookie: this.cookie, accept: 'application/json' }
    if (this.csrfToken) headers.CSRFToken = this.csrfToken
    const answer = await request(`${this.base}/api/${version}/${path}${search ? `?${search}` : ''}`, { headers }, fail)
    const type = answer.headers.get('content-type') ?? ''
    const text = await boundedText(answer, fail)
    // M/Monit answers a request without a valid session with its login page, 200 text/html (AUTH-5).
    if (type.startsWith('text/html')) {
      throw new SourceError(`${this.shown}: api/${version}/${path}: the server answered its login page: the session ended`, {
        cause: LOGIN_PAGE
      })
    }
    if (answer.status === 403) throw fail(`refused (403): ${this.shownUser()} must be an administrator`)
    if (answer.status !== 200) throw fail(`answered ${answer.status}: ${text.slice(0, 200)}`)
    try {
      return JSON.parse(text) as T
    } catch {
      throw fail('the answer is not JSON')
    }
  }

  /** Ends the session (AUTH-7); a failure to do so changes nothing for the import. */
  async logout(): Promise<void> {
    await this.get(1, 'session/invalidate').catch(() => undefined)
  }

  private shownUser(): string {
    return decodeURIComponent(new URL(this.shown).username)
  }
}

async function request(url: string, init: RequestInit, fail: (why: string) => SourceError): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
  } catch (e) {
    const cause = (e as { cause?: { message?: string } }).cause?.message
    throw fail(`cannot reach the server (${cause ?? (e as Error).message})`)
  }
}

/** The answer's text, refused past MAX_ANSWER_BYTES. */
async function boundedText(answer: Response, fail: (why: string) => SourceError): Promise<string> {
  const length = Number(answer.headers.get('content-length') ?? 0)
  if (length > MAX_ANSWER_BYTES) throw fail(`an answer of ${length} bytes is more than the ${MAX_ANSWER_BYTES} read`)
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of answer.body ?? []) {
    size += chunk.length
    if (size > MAX_ANSWER_BYTES) throw fail(`an answer of more than ${MAX_ANSWER_BYTES} bytes`)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** `zsessionid=…` from the answer's Set-Cookie, the part before the first ";" (AUTH-1). */
function sessionCookie(headers: Headers): string | undefined {
  return headers
    .getSetCookie()
    .map((c) => c.split(';')[0].trim())
    .find((c) => c.startsWith('zsessionid='))
}
