// Server settings an administrator edits from the console (settings/update), in the `setting` table:
// the port to listen on at the next start, the session idle timeout, how long events and the audit log are kept and how soon
// a resource's forecast is an event, each validated here, on write
// and on read, so a hand-edited database can never make the server misbehave; and, set by the servers
// themselves, the fingerprint of the secret.key that seals the database's secrets.
import { SettingTable } from './setting-table'
import type { QueryBuilder, SqlRunner } from './sql'

export const SESSION_TIMEOUT_LIMITS = { min: 60, max: 30 * 24 * 3600 } as const
export const PORT_LIMITS = { min: 1, max: 65535 } as const
/** How long events are kept: from a day to twenty years; a year unless an administrator chose. */
export const EVENT_RETENTION_LIMITS = { min: 86_400, max: 20 * 365 * 86_400 } as const
export const DEFAULT_EVENT_RETENTION_SEC = 365 * 86_400
/** How long the audit log is kept: the same range and default as events. */
export const AUDIT_RETENTION_LIMITS = EVENT_RETENTION_LIMITS
export const DEFAULT_AUDIT_RETENTION_SEC = DEFAULT_EVENT_RETENTION_SEC

/** How soon a resource's forecast to reach 100 % raises a Forecast event: from an hour to a year; 3 days unless set. */
export const FORECAST_HORIZON_LIMITS = { min: 3600, max: 365 * 86_400 } as const
export const DEFAULT_FORECAST_HORIZON_SEC = 72 * 3600

const PORT_KEY = 'server.port'
const SESSION_TIMEOUT_KEY = 'session.timeout'
const EVENT_RETENTION_KEY = 'event.retention'
const AUDIT_RETENTION_KEY = 'audit.retention'
const FORECAST_HORIZON_KEY = 'forecast.horizon'
const KEY_FINGERPRINT_KEY = 'secret.key.fingerprint'

export interface ServerSettingsChange {
  port?: number
  sessionTimeoutSec?: number
  eventRetentionSec?: number
  auditRetentionSec?: number
  forecastHorizonSec?: number
}

export class ServerSettingsRepository {
  private readonly table: SettingTable

  constructor(db: QueryBuilder, sql: SqlRunner) {
    this.table = new SettingTable(db, sql)
  }

  /** The port stored for the next start; undefined when none is (or the stored one is unusable). */
  port(): number | undefined {
    return this.whole(PORT_KEY, PORT_LIMITS)
  }

  /** The session idle timeout in seconds; undefined when none is stored (the server default applies). */
  sessionTimeoutSec(): number | undefined {
    return this.whole(SESSION_TIMEOUT_KEY, SESSION_TIMEOUT_LIMITS)
  }

  /** How long events are kept, in seconds. */
  eventRetentionSec(): number {
    return this.whole(EVENT_RETENTION_KEY, EVENT_RETENTION_LIMITS) ?? DEFAULT_EVENT_RETENTION_SEC
  }

  /** How long audit log rows are kept, in seconds. */
  auditRetentionSec(): number {
    return this.whole(AUDIT_RETENTION_KEY, AUDIT_RETENTION_LIMITS) ?? DEFAULT_AUDIT_RETENTION_SEC
  }

  /** How soon a forecast to reach 100 % is a Forecast event, in seconds. */
  forecastHorizonSec(): number {
    return this.whole(FORECAST_HORIZON_KEY, FORECAST_HORIZON_LIMITS) ?? DEFAULT_FORECAST_HORIZON_SEC
  }

  /**
   * The fingerprint of the secret.key that seals this database's secrets: `mine` when no server stored
   * one before (the first to start on it), else the one stored.
   */
  keyFingerprint(mine: string): string {
    return this.table.setIfAbsent(KEY_FINGERPRINT_KEY, mine)
  }

  /** Stores the given settings; throws SettingError naming the first invalid one, storing nothing. */
  update(change: ServerSettingsChange): void {
    if (change.port !== undefined) check('port', change.port, PORT_LIMITS)
    if (change.sessionTimeoutSec !== undefined) check('sessiontimeout', change.sessionTimeoutSec, SESSION_TIMEOUT_LIMITS)
    if (change.eventRetentionSec !== undefined) check('eventretention', change.eventRetentionSec, EVENT_RETENTION_LIMITS)
    if (change.auditRetentionSec !== undefined) check('auditretention', change.auditRetentionSec, AUDIT_RETENTION_LIMITS)
    if (change.forecastHorizonSec !== undefined) check('forecasthorizon', change.forecastHorizonSec, FORECAST_HORIZON_LIMITS)
    if (change.port !== undefined) this.table.set(PORT_KEY, change.port)
    if (change.sessionTimeoutSec !== undefined) this.table.set(SESSION_TIMEOUT_KEY, change.sessionTimeoutSec)
    if (change.eventRetentionSec !== undefined) this.table.set(EVENT_RETENTION_KEY, change.eventRetentionSec)
    if (change.auditRetentionSec !== undefined) this.table.set(AUDIT_RETENTION_KEY, change.auditRetentionSec)
    if (change.forecastHorizonSec !== undefined) this.table.set(FORECAST_HORIZON_KEY, change.forecastHorizonSec)
  }

  private whole(key: string, limits: { min: number; max: number }): number | undefined {
    const value = this.table.get(key)
    if (value === undefined) return undefined
    const n = Number(value)
    return Number.isSafeInteger(n) && n >= limits.min && n <= limits.max ? n : undefined
  }
}

export class SettingError extends Error {
  constructor(
    readonly setting: string,
    message: string
  ) {
    super(message)
  }
}

function check(setting: string, value: number, limits: { min: number; max: number }): void {
  if (!Number.isSafeInteger(value) || value < limits.min || value > limits.max) {
    throw new SettingError(setting, `expected a whole number from ${limits.min} to ${limits.max}`)
  }
}
