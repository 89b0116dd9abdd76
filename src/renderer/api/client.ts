// The console's only door to the server: the M/Monit API under /api/2 with the session cookie.
// Mutations carry the session's CSRF token; an answer that is the HTML login page means the session
// ended, so the whole page goes back to the login form. Every outcome tells live/connection whether the
// server is there.
import { serverAnswered, serverUnavailable, serverUnreachable } from '../live/connection'
import type { ErrorAnswer } from '../../shared/api/common'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The argument at fault, when the server names one (a 400's `argument`). */
    readonly argument?: string
  ) {
    super(message)
  }
}

export type ApiParams = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>

let csrfToken = ''

/** Set from profile/get once the console knows its session. */
export function setCsrfToken(token: string): void {
  csrfToken = token
}

function encode(params: ApiParams): URLSearchParams {
  const form = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue
    for (const one of Array.isArray(value) ? value : [value]) form.append(key, String(one))
  }
  return form
}

async function send<T>(path: string, init: RequestInit): Promise<T> {
  let res: Response
  try {
    res = await fetch(`/api/2/${path}`, { credentials: 'same-origin', ...init })
  } catch {
    serverUnreachable()
    throw new ApiError(0, 'The server cannot be reached. Is it running?')
  }
  const type = res.headers.get('content-type') ?? ''
  if (type.startsWith('text/html')) {
    // Read to the end first, or leaving would abort the request half-way.
    await res.text().catch(() => '')
    window.location.assign('/index.csp')
    // The page is leaving for the login form (or first-run setup): nothing is left to tell the screen,
    // and an error thrown now would only be logged.
    return new Promise<never>(() => {})
  }
  const body: unknown = type.includes('json') ? await res.json().catch(() => undefined) : undefined
  const { error, argument } = (res.ok ? {} : (body ?? {})) as Partial<ErrorAnswer>
  const message = typeof error === 'string' ? error : `The server answered ${res.status} ${res.statusText}`
  if (res.status === 503) serverUnavailable(message)
  else serverAnswered()
  if (!res.ok) throw new ApiError(res.status, message, argument)
  return body as T
}

/** A read: GET with the arguments in the query string. */
export function apiGet<T>(path: string, params: ApiParams = {}): Promise<T> {
  const query = encode(params).toString()
  return send<T>(query ? `${path}?${query}` : path, { method: 'GET' })
}

/** A change: POST with a form body and the CSRF token. */
export function apiPost<T = Record<string, never>>(path: string, params: ApiParams = {}): Promise<T> {
  return send<T>(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', CSRFToken: csrfToken },
    body: encode(params)
  })
}

/**
 * Logs out by a POST carrying the CSRF token, which a page of another site cannot forge (GET
 * /login/logout.csp stays for M/Monit's clients), then leaves for the login form.
 */
export async function logOut(): Promise<void> {
  await fetch('/login/logout.csp', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { CSRFToken: csrfToken },
    redirect: 'manual'
  }).catch(() => undefined)
  window.location.assign('/index.csp')
}

/** A readable sentence for any error a query or mutation produced. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}
