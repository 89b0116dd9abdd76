// First-run setup (no session yet): JSON, which a page of another origin cannot post without a CORS
// preflight the server never grants.
import type { ErrorAnswer } from '../../shared/api/common'
import type { SetupRequest, SetupResult, SetupStatus } from '../../shared/api/setup'
import { ApiError } from './client'

export type { SetupRequest, SetupResult, SetupStatus } from '../../shared/api/setup'

async function send<T>(method: 'GET' | 'POST', body?: unknown): Promise<T> {
  let res: Response
  try {
    res = await fetch(method === 'GET' ? '/api/2/setup/status' : '/api/2/setup/complete', {
      method,
      credentials: 'same-origin',
      ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    })
  } catch {
    throw new ApiError(0, 'The server cannot be reached. Is it running?')
  }
  const json = (await res.json().catch(() => undefined)) as Partial<ErrorAnswer> | undefined
  if (!res.ok) throw new ApiError(res.status, json?.error ?? `The server answered ${res.status} ${res.statusText}`, json?.argument)
  return json as T
}

export const setupStatus = () => send<SetupStatus>('GET')
export const completeSetup = (request: SetupRequest) => send<SetupResult>('POST', request)
