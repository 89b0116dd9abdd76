// The answer to credentials refused unchecked by the login throttle (auth/login-throttle.ts).
import { HttpError } from '../web/http-error'

/** 429 with Retry-After; `headers` adds e.g. the Basic challenge. */
export function tooManyFailures(retryAfterSec: number, headers: Record<string, string> = {}): HttpError {
  return new HttpError(429, `Too many failed logins; try again in ${retryAfterSec} seconds`, {
    ...headers,
    'Retry-After': String(retryAfterSec)
  })
}
