// An M/Monit API client as existing clients behave: cookie from GET /index.csp, form login,
// then GET with a query string or POST with a form body. One cookie, never rotated.
import { request } from 'node:http'

export interface ApiResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  /** Parsed body when it is JSON, else undefined. */
  json: unknown
}

export type Params = Record<string, string | number | boolean | readonly (string | number)[]>

export interface ApiClient {
  cookie: string | undefined
  get(path: string, params?: Params, headers?: Record<string, string>): Promise<ApiResponse>
  post(path: string, params?: Params, headers?: Record<string, string>): Promise<ApiResponse>
  /** session/get?key=CSRFToken */
  csrfToken(): Promise<string>
}

export function encodeParams(params: Params = {}): string {
  const search = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) {
    for (const one of Array.isArray(v) ? v : [v]) search.append(k, String(one))
  }
  return search.toString()
}

export function httpRequest(
  baseUrl: string,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {}
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { method, headers, agent: false, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString()
        let json: unknown
        try {
          json = JSON.parse(text)
        } catch {
          json = undefined
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json })
      })
    })
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)))
    req.on('error', reject)
    req.end(body)
  })
}

/** A client with a session cookie but not logged in. */
export async function anonymous(baseUrl: string): Promise<ApiClient> {
  const client: ApiClient = {
    cookie: undefined,
    async get(path, params, headers = {}) {
      const qs = encodeParams(params)
      return remember(await httpRequest(baseUrl, 'GET', qs ? `${path}?${qs}` : path, undefined, withCookie(headers)))
    },
    async post(path, params, headers = {}) {
      return remember(
        await httpRequest(
          baseUrl,
          'POST',
          path,
          encodeParams(params),
          withCookie({ 'Content-Type': 'application/x-www-form-urlencoded', ...headers })
        )
      )
    },
    async csrfToken() {
      return ((await client.get('/api/2/session/get', { key: 'CSRFToken' })).json as { CSRFToken: string }).CSRFToken
    }
  }
  const withCookie = (h: Record<string, string>) => (client.cookie ? { Cookie: client.cookie, ...h } : h)
  const remember = (res: ApiResponse) => {
    const set = res.headers['set-cookie']
    if (set?.length) client.cookie = set[0].split(';')[0]
    return res
  }
  await client.get('/index.csp')
  return client
}

/** Logs in through POST /z_security_check; `csrf: 'off'` as most existing clients do. */
export async function loginAs(baseUrl: string, user: string, password: string, opts: { csrf?: 'on' | 'off' } = {}): Promise<ApiClient> {
  const client = await anonymous(baseUrl)
  const res = await client.post('/z_security_check', {
    z_username: user,
    z_password: password,
    ...(opts.csrf === 'on' ? {} : { z_csrf_protection: 'off' })
  })
  if (res.status !== 302) throw new Error(`login of ${user} failed: ${res.status} ${res.text.slice(0, 200)}`)
  return client
}

/** The JSON body of a failure: {"error"}, plus {"argument"} naming the argument of an "invalid argument 'x': …" error. */
export function errorBody(error: string): { error: string; argument?: string } {
  const argument = /^invalid argument '([A-Za-z0-9]+)'/.exec(error)?.[1]
  return argument === undefined ? { error } : { error, argument }
}

/** The three spellings of every API path (spec: Versioning): legacy, api/1, api/2. */
export const PREFIXES = ['', '/api/1', '/api/2'] as const
