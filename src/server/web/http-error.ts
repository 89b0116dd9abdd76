// An error answered as {"error": "..."} with its status (compat ERR-1): thrown by the API routes and by
// the collector's plain Node handler alike, so it depends on no framework.
import { storageFailureMessage, storageRetryAfterSec } from '../store/storage-errors'

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The request argument at fault, sent as the answer's `argument` field. */
    readonly argument?: string
  ) {
    super(message)
  }
}

/** The 400 for one bad argument: "invalid argument 'name': problem", naming it in `argument` too. */
export function badArgument(name: string, problem: string): HttpError {
  return new HttpError(400, `invalid argument '${name}': ${problem}`, {}, name)
}

/** A write the storage refused (full disk: store/storage-errors.ts): the request may work later, nothing stored is lost. */
export function storageUnavailable(code: string): HttpError {
  return new HttpError(503, storageFailureMessage(code), { 'Retry-After': String(storageRetryAfterSec(code)) })
}
