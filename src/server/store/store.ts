// The store: the only code that knows SQL. One repository per aggregate over one connection (SQLite or
// PostgreSQL), each built once here; routes, jobs and the collector reach them as `store.<repository>`.
import { AlertChannelRepository } from './alert-channels'
import { AlertDeliveryRepository } from './alert-deliveries'
import { AlertMatchingRepository } from './alert-matching'
import { AlertMuteRepository } from './alert-mutes'
import { AlertOutboxWriter } from './alert-outbox-writer'
import { AlertRuleRepository } from './alert-rules'
import { AuditLogRepository } from './audit-log'
import { ApiTokenRepository } from './api-tokens'
import { openDatabase } from './database'
import { EventReportRepository } from './event-reports'
import { EventRepository } from './events'
import { DeclaredGroupRepository } from './declared-groups'
import { GroupRepository } from './groups'
import { HistoryStore } from './history'
import { HostAdminRepository } from './host-admin'
import { HostRepository } from './hosts'
import { IntervalRepository } from './intervals'
import { ForecastRepository } from './forecasts'
import { PulledAgentRepository } from './pulled-agents'
import { SingleSignOnRepository } from './single-sign-on'
import { MetricsRepository } from './metrics'
import type { ChangeChannel } from './change-channel'
import { PostgresChangeChannel } from './postgres/change-channel'
import { soleProcessLease, type JobLease } from './job-lease'
import { PostgresJobLease } from './postgres/job-lease'
import { ProcessPermissionGeneration, StoredPermissionGeneration, type PermissionGeneration } from './permission-generation'
import { RoleRepository } from './roles'
import { ServerRunRepository } from './server-runs'
import { ServerSettingsRepository } from './server-settings'
import { ServiceRepository } from './services'
import { SessionRepository } from './sessions'
import { isPostgresUrl, openPostgres, type PostgresOptions } from './postgres/database'
import { SqliteRunner } from './sqlite-runner'
import { createQueryBuilder, type QueryBuilder, type SqlRunner } from './sql'
import { StatusRepository } from './status'
import { transactionConflict } from './storage-errors'
import { StatusOverviewRepository } from './status-overview'
import { UptimeRepository } from './uptime'
import { UserRepository } from './users'

/**
 * The server's lock timeout on PostgreSQL (issue 29): a statement waiting this long on another session's lock
 * (a long migration, VACUUM FULL, an administrator's transaction) fails as "storage busy" (503, the agents
 * keep their events queued) instead of holding its thread — the HTTP one, which serves everything else too.
 */
export const DEFAULT_LOCK_TIMEOUT_MS = 5_000

/**
 * How long the server's threads that serve everything else (HTTP, jobs) wait on a PostgreSQL statement
 * before looking at it (issue 29): one waiting on another session's lock or on a database that no longer
 * answers is given up then, answered 503, and the statements after it fail at once while that lasts.
 */
export const DEFAULT_STALL_MS = 250

/**
 * The longest a PostgreSQL statement of the HTTP thread may run (issue 29: the thread waits on nothing for
 * longer than a few seconds): past it PostgreSQL cancels the statement, and the request is answered 503
 * "busy" with Retry-After. What is left there is short (a session, a login, an administrator's change):
 * the reads run on the read threads (api/read-threads.ts), the jobs on the jobs' thread. Those threads,
 * the collector's and the import's keep their own bounds: nothing else waits on them.
 */
export const DEFAULT_HTTP_STATEMENT_TIMEOUT_MS = 5_000

/** How many times a transaction that lost a conflict runs in all (repeatableTransaction). */
const CONFLICT_ATTEMPTS = 3

export interface StoreOptions extends PostgresOptions {
  /** SQLite's page cache for this connection; absent, the default (database.ts). */
  pageCacheMib?: number
}

export class Store {
  /** Builds queries; `sql` runs them. */
  readonly db: QueryBuilder
  readonly sql: SqlRunner
  // What the collector writes
  readonly hosts: HostRepository
  readonly services: ServiceRepository
  readonly events: EventRepository
  readonly intervals: IntervalRepository
  readonly history: HistoryStore
  readonly alertMatching: AlertMatchingRepository
  readonly alertOutboxWriter: AlertOutboxWriter
  // Accounts and access
  readonly users: UserRepository
  readonly roles: RoleRepository
  readonly groups: GroupRepository
  /** Host groups the agents declare (collector only) */
  readonly declaredGroups: DeclaredGroupRepository
  readonly sessions: SessionRepository
  readonly apiTokens: ApiTokenRepository
  // Administration
  readonly hostAdmin: HostAdminRepository
  readonly serverSettings: ServerSettingsRepository
  readonly serverRuns: ServerRunRepository
  readonly alertChannels: AlertChannelRepository
  readonly alertRules: AlertRuleRepository
  readonly alertMutes: AlertMuteRepository
  readonly alertDeliveries: AlertDeliveryRepository
  readonly auditLog: AuditLogRepository
  // Reads for the status screens, reports and /metrics
  readonly status: StatusRepository
  readonly statusOverview: StatusOverviewRepository
  readonly eventReports: EventReportRepository
  readonly uptime: UptimeRepository
  readonly metrics: MetricsRepository
  readonly forecasts: ForecastRepository
  readonly pulledAgents: PulledAgentRepository
  readonly singleSignOn: SingleSignOnRepository
  private readonly permissions: PermissionGeneration

  /** `location`: a SQLite file's path, or a PostgreSQL URL (postgres://user:password@host:port/db). */
  constructor(
    readonly location: string,
    log?: (line: string) => void,
    { pageCacheMib, ...postgres }: StoreOptions = {}
  ) {
    const sql = isPostgresUrl(location)
      ? openPostgres(location, log, postgres)
      : new SqliteRunner(openDatabase(location, log, undefined, pageCacheMib).sqlite)
    const db = createQueryBuilder(sql.engine)
    const permissions = sql.engine === 'postgres' ? new StoredPermissionGeneration(sql) : new ProcessPermissionGeneration()
    this.permissions = permissions
    this.db = db
    this.sql = sql
    this.hosts = new HostRepository(db, sql)
    this.services = new ServiceRepository(db, sql)
    this.events = new EventRepository(db, sql)
    this.intervals = new IntervalRepository(db, sql)
    this.history = new HistoryStore(db, sql)
    this.alertMatching = new AlertMatchingRepository(db, sql)
    this.alertOutboxWriter = new AlertOutboxWriter(db, sql)
    this.users = new UserRepository(db, sql, permissions)
    this.roles = new RoleRepository(db, sql, permissions)
    this.groups = new GroupRepository(db, sql, permissions)
    this.declaredGroups = new DeclaredGroupRepository(db, sql, permissions)
    this.sessions = new SessionRepository(db, sql)
    this.apiTokens = new ApiTokenRepository(db, sql)
    this.hostAdmin = new HostAdminRepository(db, sql, permissions)
    this.serverSettings = new ServerSettingsRepository(db, sql)
    this.serverRuns = new ServerRunRepository(db, sql)
    this.alertChannels = new AlertChannelRepository(db, sql)
    this.alertRules = new AlertRuleRepository(db, sql)
    this.alertMutes = new AlertMuteRepository(db, sql)
    this.alertDeliveries = new AlertDeliveryRepository(db, sql)
    this.auditLog = new AuditLogRepository(db, sql)
    this.status = new StatusRepository(db, sql)
    this.statusOverview = new StatusOverviewRepository(db, sql)
    this.eventReports = new EventReportRepository(db, sql)
    this.uptime = new UptimeRepository(db, sql)
    this.metrics = new MetricsRepository(db, sql)
    this.forecasts = new ForecastRepository(db, sql)
    this.pulledAgents = new PulledAgentRepository(db, sql)
    this.singleSignOn = new SingleSignOnRepository(db, sql)
  }

  /** Reaches the database, or throws why it cannot (a storage failure: storage-errors.ts). */
  ping(): void {
    this.sql.rows('SELECT 1')
  }

  /** Runs `fn` in one immediate transaction: all of it is stored, or none of it. */
  transaction<T>(fn: () => T): T {
    return this.sql.transaction(fn)
  }

  /**
   * As transaction(), run again (CONFLICT_ATTEMPTS in all) when PostgreSQL failed it for a conflict with
   * another session's (a deadlock, a serialization failure): the other went on, and this one may now.
   * Only outside any other transaction, and for an `fn` that does nothing but its statements.
   */
  repeatableTransaction<T>(fn: () => T): T {
    for (let attempt = 1; ; attempt++) {
      try {
        return this.sql.transaction(fn)
      } catch (err) {
        if (attempt >= CONFLICT_ATTEMPTS || !transactionConflict(err)) throw err
      }
    }
  }

  /** The lease of the jobs that run once per database (job-lease.ts); the caller closes it. */
  openJobLease(log: (line: string) => void): JobLease {
    return isPostgresUrl(this.location) ? new PostgresJobLease(this.location, log) : soleProcessLease
  }

  /** How live changes reach the other instances on this database; undefined on SQLite (one process per file). */
  openChangeChannel(log: (line: string) => void): ChangeChannel | undefined {
    return isPostgresUrl(this.location) ? new PostgresChangeChannel(this.location, log) : undefined
  }

  /** The connection's SQLite page cache as SQLite reports it, in MiB; undefined on PostgreSQL. */
  pageCacheMib(): number | undefined {
    return this.sql instanceof SqliteRunner ? -Number(this.sql.sqlite.pragma('cache_size', { simple: true })) / 1024 : undefined
  }

  /**
   * Another connection wrote users, roles or host groups (the M/Monit import's thread): on SQLite the
   * counter cached principals compare against lives in this process, so that write did not bump it.
   */
  permissionsChanged(): void {
    this.permissions.bump()
  }

  close(): void {
    this.sql.close()
  }
}
