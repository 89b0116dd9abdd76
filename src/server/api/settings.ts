// settings/get and settings/update (our extension, administrators only): the port for the next start,
// the session idle timeout, how long events and the audit log are kept, how soon a resource's forecast is an event and the
// retention of each statistics history level. Each argument is
// optional in an update; a bad one is a 400 naming it, and then nothing is stored.
import { DEFAULT_SESSION_TIMEOUT_SEC } from '../auth/sessions'
import { endpoint, type ApiEndpoint } from '../http/api'
import { badArgument } from '../http/errors'
import { urlsOfServer } from '../http/listening-urls'
import { arg } from '../../shared/api/args'
import { RETENTION_LEVELS, type Retention } from '../../shared/retention'
import { RetentionError } from '../store/history-settings'
import {
  AUDIT_RETENTION_LIMITS,
  EVENT_RETENTION_LIMITS,
  FORECAST_HORIZON_LIMITS,
  PORT_LIMITS,
  SESSION_TIMEOUT_LIMITS,
  SettingError
} from '../store/server-settings'
import type { Store } from '../store/store'
import { actorOf, detailOf } from './audit'
import type { ApiDeps } from './deps'
import { serverSettings } from '../../shared/api/account'

const DEFAULT_PORT = 8080

// Ranges are checked by the repositories, which own them.
const seconds = arg.int('a whole number of seconds')
const updateParams = {
  port: arg.int().optional(),
  sessiontimeout: seconds.optional(),
  eventretention: seconds.optional(),
  auditretention: seconds.optional(),
  forecasthorizon: seconds.optional(),
  retentionraw: seconds.optional(),
  retentionminute: seconds.optional(),
  retentionhour: seconds.optional(),
  retentionday: seconds.optional()
}

export function settingsEndpoints({ store }: ApiDeps): ApiEndpoint[] {
  const settings = store.serverSettings
  const current = (server: { address(): unknown }) => {
    const address = server.address() as { port?: number } | null
    return {
      /** Stored for the next start; null: none stored (the default, unless a flag or variable chooses). */
      port: settings.port() ?? null,
      defaultport: DEFAULT_PORT,
      listeningport: address?.port ?? null,
      urls: urlsOfServer(server),
      sessiontimeout: settings.sessionTimeoutSec() ?? DEFAULT_SESSION_TIMEOUT_SEC,
      retention: store.history.settings.retention(),
      eventretention: settings.eventRetentionSec(),
      auditretention: settings.auditRetentionSec(),
      forecasthorizon: settings.forecastHorizonSec(),
      limits: {
        port: PORT_LIMITS,
        sessiontimeout: SESSION_TIMEOUT_LIMITS,
        eventretention: EVENT_RETENTION_LIMITS,
        auditretention: AUDIT_RETENTION_LIMITS,
        forecasthorizon: FORECAST_HORIZON_LIMITS
      }
    }
  }

  return [
    endpoint({
      path: 'settings/get',
      summary: "The server's settings: port, session timeout, event and history retention",
      extension: true,
      answer: serverSettings,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: {},
      handle: ({ request }) => current(request.server.server)
    }),
    endpoint({
      path: 'settings/update',
      summary: "Changes the server's settings; a bad argument stores nothing",
      extension: true,
      answer: serverSettings,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: updateParams,
      handle: (ctx) => {
        const { params, request } = ctx
        const retention: Partial<Retention> = {}
        for (const level of RETENTION_LEVELS) {
          const value = params[`retention${level}`]
          if (value !== undefined) retention[level] = value
        }
        store.auditLog.recording(actorOf(ctx), { action: 'settings.update', target: 'settings', detail: detailOf(params) }, () => {
          try {
            settings.update({
              port: params.port,
              sessionTimeoutSec: params.sessiontimeout,
              eventRetentionSec: params.eventretention,
              auditRetentionSec: params.auditretention,
              forecastHorizonSec: params.forecasthorizon
            })
          } catch (err) {
            if (err instanceof SettingError) throw badArgument(err.setting, err.message)
            throw err
          }
          if (Object.keys(retention).length > 0) setRetention(store, retention)
        })
        return current(request.server.server)
      }
    })
  ]
}

/** The history repository checks the levels against each other; its message names the level. */
function setRetention(store: Store, retention: Partial<Retention>): void {
  try {
    store.history.settings.setRetention(retention)
  } catch (err) {
    if (!(err instanceof RetentionError)) throw err
    const level = RETENTION_LEVELS.find((l) => err.message.startsWith(`${l} `)) ?? 'raw'
    throw badArgument(`retention${level}`, err.message)
  }
}
