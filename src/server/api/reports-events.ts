// Placeholder: filled in by the endpoint work of issue 4.
import type { ApiEndpoint } from '../http/api'
import type { ApiDeps } from './deps'

export function eventReportEndpoints(_deps: ApiDeps): ApiEndpoint[] {
  return []
}
