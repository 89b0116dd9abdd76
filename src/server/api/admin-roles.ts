// Placeholder: filled in by the endpoint work of issue 3.
import type { ApiEndpoint } from '../http/api'
import type { ApiDeps } from './deps'

export function adminRoleEndpoints(_deps: ApiDeps): ApiEndpoint[] {
  return []
}
