import { initial } from './001-initial'
import { eventIndexes } from './002-event-indexes'
import { history } from './003-history'
import { eventAgentTime } from './004-event-agent-time'
import { serverRuns } from './005-server-runs'
import { alertConfig } from './006-alert-config'
import { alertOutbox } from './007-alert-outbox'
import { alertConfigGeneration } from './009-alert-config-generation'
import { alertOutboxGrouping } from './010-alert-outbox-grouping'
import { passwordHash } from './011-password-hash'
import { callBackPin } from './012-call-back-pin'
import { apiTokens } from './013-api-tokens'
import { agentCertificates } from './014-agent-certificates'
import { auditLog } from './015-audit-log'
import { declaredGroupMembers } from './017-declared-group-members'
import { sessionOfDeletedUser } from './018-session-of-deleted-user'
import { stateIntervalEnd } from './019-state-interval-end'
import { userTimeZone } from './020-user-time-zone'
import { uptimeGeneration } from './021-uptime-generation'
import { hostUptimeGeneration } from './022-host-uptime-generation'
import { hostUptimeTable } from './023-host-uptime-table'
import { serverRunReportsHeld } from './024-server-run-reports-held'
import { forecast } from './025-forecast'
import { pulledAgent } from './026-pulled-agent'
import { singleSignOn } from './027-single-sign-on'

export interface Migration {
  version: number
  name: string
  sql: string
}

/** Every migration, in order. Append only. */
export const migrations: readonly Migration[] = [
  initial,
  eventIndexes,
  history,
  eventAgentTime,
  serverRuns,
  alertConfig,
  alertOutbox,
  alertConfigGeneration,
  alertOutboxGrouping,
  passwordHash,
  callBackPin,
  apiTokens,
  agentCertificates,
  auditLog,
  declaredGroupMembers,
  sessionOfDeletedUser,
  stateIntervalEnd,
  userTimeZone,
  uptimeGeneration,
  hostUptimeGeneration,
  hostUptimeTable,
  serverRunReportsHeld,
  forecast,
  pulledAgent,
  singleSignOn
]
