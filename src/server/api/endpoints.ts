// Every API endpoint, one module per table of the API spec (and one per extension of ours).
// Adding one: declare its answer (and shared argument shapes) as zod schemas in src/shared/api/<area>.ts;
// add `endpoint({ path, methods, summary, params, answer, handle })` to the module of its area (access
// 'admin' or 'public', mutation: true for writes, extension: true when M/Monit has no such endpoint).
// The type checker holds the handler to its answer, the API tests check answers at run time, and the
// OpenAPI document (GET /api/2/openapi.json) lists it with no further step.
import type { ApiEndpoint } from '../http/api'
import { adminAlertChannelEndpoints } from './admin-alert-channels'
import { adminAlertDeliveryEndpoints } from './admin-alert-deliveries'
import { adminAlertMuteEndpoints } from './admin-alert-mutes'
import { adminAlertRuleEndpoints } from './admin-alert-rules'
import { adminAuditEndpoints } from './admin-audit'
import { adminGroupEndpoints } from './admin-groups'
import { adminHostEndpoints } from './admin-hosts'
import { adminImportEndpoints } from './admin-import'
import { adminRefusedAgentEndpoints } from './admin-refused-agents'
import { adminRoleEndpoints } from './admin-roles'
import { adminUserEndpoints } from './admin-users'
import { agentActionEndpoints } from './agent-actions'
import { apiTokenEndpoints } from './api-tokens'
import { adminPulledAgentEndpoints } from './admin-pulled-agents'
import { adminSingleSignOnEndpoints } from './admin-single-sign-on'
import type { ApiDeps } from './deps'
import { liveEndpoints } from './live'
import { mapEndpoints } from './maps'
import { openApiEndpoint } from './openapi'
import { analyticsReportEndpoints } from './reports-analytics'
import { profileEndpoints } from './profile'
import { eventReportEndpoints } from './reports-events'
import { forecastReportEndpoints } from './reports-forecasts'
import { uptimeReportEndpoints } from './reports-uptime'
import { sessionEndpoints } from './session'
import { settingsEndpoints } from './settings'
import { setupEndpoints } from './setup'
import { statusEndpoints } from './status-hosts'
import { statusOverviewEndpoints } from './status-overview'

export function apiEndpoints(deps: ApiDeps): ApiEndpoint[] {
  return [
    ...sessionEndpoints(deps),
    ...statusEndpoints(deps),
    ...statusOverviewEndpoints(deps),
    ...mapEndpoints(deps),
    ...adminHostEndpoints(deps),
    ...adminRefusedAgentEndpoints(deps),
    ...adminGroupEndpoints(deps),
    ...adminUserEndpoints(deps),
    ...adminRoleEndpoints(deps),
    ...eventReportEndpoints(deps),
    ...uptimeReportEndpoints(deps),
    ...agentActionEndpoints(deps),
    ...analyticsReportEndpoints(deps),
    ...forecastReportEndpoints(deps),
    ...profileEndpoints(deps),
    ...apiTokenEndpoints(deps),
    ...settingsEndpoints(deps),
    ...adminAlertChannelEndpoints(deps),
    ...adminAlertRuleEndpoints(deps),
    ...adminAlertMuteEndpoints(deps),
    ...adminAlertDeliveryEndpoints(deps),
    ...adminAuditEndpoints(deps),
    ...adminImportEndpoints(deps),
    ...adminPulledAgentEndpoints(deps),
    ...adminSingleSignOnEndpoints(deps),
    ...liveEndpoints(deps)
  ]
}

/** Those needing no session (first-run setup, the OpenAPI document), after every other endpoint. */
export function publicEndpoints(deps: ApiDeps, documented: () => readonly ApiEndpoint[], serverVersion: string): ApiEndpoint[] {
  return [...setupEndpoints(deps), openApiEndpoint(documented, serverVersion)]
}

/** Every endpoint the server serves. */
export function allEndpoints(deps: ApiDeps, serverVersion: string): ApiEndpoint[] {
  const all = apiEndpoints(deps)
  all.push(...publicEndpoints(deps, () => all, serverVersion))
  return all
}
