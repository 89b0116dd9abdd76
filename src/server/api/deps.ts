// What endpoint modules are built from.
import type { ChannelType, SendContext } from '../alerting/channel'
import type { ApiTokenService } from '../auth/api-tokens'
import type { LoginThrottle } from '../auth/login-throttle'
import type { Principals } from '../auth/principals'
import type { SecretBox } from '../auth/secret-box'
import type { SessionService } from '../auth/sessions'
import type { RefusedAgents } from '../collector/refused-agents'
import type { OidcSettings } from '../domain/single-sign-on'
import type { MMonitImportJob } from '../jobs/mmonit-import-job'
import type { ChangeFeed } from '../live/change-feed'
import type { Store } from '../store/store'

export interface ApiDeps {
  store: Store
  sessions: SessionService
  /** Personal API tokens: made, listed and revoked by api/api-tokens.ts, checked by the session gate. */
  apiTokens: ApiTokenService
  secrets: SecretBox
  /** Where host removals are announced to live subscribers; GET live streams it. */
  feed?: ChangeFeed
  /** Who may see what, for the live stream's per-change filter. */
  principals?: Principals
  /** The login throttle, for the one API call that checks a password (profile/update). */
  throttle: LoginThrottle
  /** The alert channel types admin/alerts/channels accepts; default the registry (alerting/channels). */
  alertChannelTypes?: readonly ChannelType[]
  /** The desktop app's notifications, when it started this server (the `desktop` channel). */
  desktop?: SendContext['desktop']
  /** Agents the collector refused (admin/agents/refused/*). */
  refusedAgents: RefusedAgents
  /** The M/Monit import run by the server (admin/import/mmonit/*); absent, those endpoints are not served. */
  mmonitImport?: MMonitImportJob
  /** Single sign-on as configured (--oidc-*), for admin/sso/get; absent: off. */
  oidc?: OidcSettings
  /** --password-login break-glass's user; absent: password login for everyone. */
  breakGlassUser?: string
}
