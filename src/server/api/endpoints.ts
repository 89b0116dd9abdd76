// Every M/Monit API endpoint, one module per table of the API spec.
import type { ApiEndpoint } from '../http/api'
import type { ApiDeps } from './deps'
import { sessionEndpoints } from './session'

export function apiEndpoints(deps: ApiDeps): ApiEndpoint[] {
  return [...sessionEndpoints(deps)] as ApiEndpoint[]
}
