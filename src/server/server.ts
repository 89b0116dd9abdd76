// Starts and stops the whole server: store, jobs and HTTP. Used by the headless entry (main.ts), the
// Electron shell (through that entry) and the tests.
import { join } from 'node:path'
import type { ChannelType } from './alerting/channel'
import { ApiTokenService } from './auth/api-tokens'
import { BasicAuthenticator } from './auth/basic-auth'
import { RefusedAgents } from './collector/refused-agents'
import { LoginThrottle } from './auth/login-throttle'
import { Principals } from './auth/principals'
import { SecretBox } from './auth/secret-box'
import { SessionService } from './auth/sessions'
import { createInitialUsers } from './bootstrap-users'
import { defaultCollectorLimits } from './collector/request-body'
import { IngestThread } from './collector/ingest-thread'
import type { ServerConfig } from './config'
import { desktopNotifier, startDesktopBridge, type ParentChannel } from './desktop-bridge'
import { allEndpoints } from './api/endpoints'
import { DEFAULT_READ_THREADS, DEFAULT_READ_WAIT_MS, ReadThreads } from './api/read-threads'
import { buildApp } from './http/app'
import { httpLimitsWith } from './http/http-limits'
import { listeningUrls } from './http/listening-urls'
import { TrustedProxies } from './http/trusted-proxies'
import { AlertDeliveryJob } from './jobs/alert-delivery'
import { HeartbeatWatchdog, watchdogOnThread } from './jobs/heartbeat-watchdog'
import { HistoryRollupJob, type HistoryRollupOptions } from './jobs/history-rollup'
import { JobsThread } from './jobs/jobs-thread'
import { forecastSlice } from './history/forecaster'
import { Rollup } from './history/rollup'
import { EventRetentionJob, pruneExpiredBatch } from './jobs/event-retention'
import { ForecastJob } from './jobs/forecast-job'
import { OidcClient } from './auth/oidc-client'
import { SSO_CALLBACK_PATH } from './http/sso-paths'
import { PullJob } from './jobs/pull-job'
import { MMonitImportJob } from './jobs/mmonit-import-job'
import { ServerRunLog } from './jobs/server-run-log'
import { SessionSweepJob } from './jobs/session-sweep'
import { ChangeFeed } from './live/change-feed'
import type { ServerLogger } from './log'
import { privateFolder } from './store/private-files'
import { CollectorStats } from './metrics/collector-stats'
import { StorageHealth } from './metrics/storage-health'
import { DatabaseWaits, SLOW_STATEMENT_MS } from './metrics/database-waits'
import type { ChangeChannel } from './store/change-channel'
import { pendingMigration } from './store/database'
import { isPostgresUrl } from './store/postgres/database'
import { loadPostgresSupport } from './store/postgres/sync-connection'
import { DEFAULT_HTTP_STATEMENT_TIMEOUT_MS, DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_STALL_MS, Store } from './store/store'
import { ServerTls } from './tls/server-tls'
import { version } from '../../package.json'

export const DATABASE_FILE = 'overseer.sqlite'

export interface RunningServer {
  port: number
  /** One URL per listening address. */
  urls: string[]
  store: Store
  /** The URL of every route the HTTP server serves (fastify's, so not POST /collector). */
  routes: readonly string[]
  /** SHA-256 of the certificate served when TLS is on (what the desktop window trusts). */
  tlsFingerprint?: string
  close(): Promise<void>
}

export interface ServerOptions extends ServerConfig {
  log: ServerLogger
  watchdogIntervalMs?: number
  historyRollup?: HistoryRollupOptions
  consoleDir?: string
  /** The desktop shell that started this process: told about LEDs and new alerts (desktop-bridge.ts). */
  parent?: ParentChannel
  /** Tests inject one with their own clock and size. */
  loginThrottle?: LoginThrottle
  /** The alert channel types; default the registry (alerting/channels). Tests add their own. */
  alertChannelTypes?: readonly ChannelType[]
  /** The alert delivery job's clock (ms); tests move it to make a reminder due without waiting minutes. */
  alertDeliveryNow?: () => number
  /** Check every API answer against its contract (shared/api); tests turn it on. */
  checkAnswers?: boolean
  /** How often the TLS files are checked for a renewal (ms); tests shorten it. */
  tlsPollMs?: number
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { log } = options
  const database = options.database ?? join(options.dataDir, DATABASE_FILE)
  // secret.key lives there whatever the engine.
  const notPrivate = privateFolder(options.dataDir)
  if (notPrivate) log.warn(`the data folder ${options.dataDir} stays readable by others: ${notPrivate}`)
  if (isPostgresUrl(database)) await loadPostgresSupport()
  else {
    const migration = pendingMigration(database)
    // Delivered before the backup and migration block this thread, so the shell waits for them.
    if (migration) await options.parent?.send({ type: 'migrating', ...migration })
  }
  // Before the store: a certificate that cannot be served stops the start with its reason.
  const tls = options.tls && ServerTls.start(options.tls, options.dataDir, log, options.tlsPollMs)
  const databaseWaits = new DatabaseWaits(log)
  const storeOptions = {
    pageCacheMib: options.cacheSizeMib,
    lockTimeoutMs: options.databaseLockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
    stallMs: options.databaseStallMs ?? DEFAULT_STALL_MS,
    statementTimeoutMs: options.databaseStatementTimeoutMs ?? DEFAULT_HTTP_STATEMENT_TIMEOUT_MS,
    onSlow: { slowMs: SLOW_STATEMENT_MS, waited: databaseWaits.waited }
  }
  const store = new Store(database, (message) => log.info(message), storeOptions)
  let ingest: IngestThread | undefined
  let changes: ChangeChannel | undefined
  let reads: ReadThreads | undefined
  try {
    const keyFile = join(options.dataDir, 'secret.key')
    const secrets = SecretBox.fromKeyFile(keyFile)
    // Several servers on one database must share the key (docs/postgresql.md): with another, every agent's
    // call-back password and alert channel secret would fail to open, message after message.
    const fingerprint = secrets.fingerprint()
    if (store.serverSettings.keyFingerprint(fingerprint) !== fingerprint) {
      throw new Error(
        `${keyFile} is not the key this database's secrets are sealed with: every server on one database needs the same secret.key (copy it from the data folder of a server that ran on it)`
      )
    }
    createInitialUsers(store.users, options, log)
    const feed = new ChangeFeed()
    changes = store.openChangeChannel((line) => log.info(line))
    if (changes) {
      const channel = changes
      await channel.listen((received) => feed.receive(received))
      feed.forwardTo((published) => channel.send(published))
    }
    const collectorLimits = { ...defaultCollectorLimits, ...options.collectorLimits }
    const { maxServices, maxStatistics } = collectorLimits
    // Read back from each connection: what SQLite applied, not what was asked for. The collector's
    // connection opens with its thread, on the first agent message.
    const pageCache = store.pageCacheMib()
    if (pageCache !== undefined) log.info(`SQLite page cache: ${pageCache} MiB for the HTTP thread`)
    ingest = IngestThread.onDemand(
      // Without the stall time: the collector's thread serves agents only, whose messages wait in the agent meanwhile.
      {
        database: store.location,
        keyFile,
        limits: { maxServices, maxStatistics },
        pageCacheMib: storeOptions.pageCacheMib,
        lockTimeoutMs: storeOptions.lockTimeoutMs
      },
      feed,
      log,
      (ready) => {
        if (ready.pageCacheMib !== undefined) log.info(`SQLite page cache: ${ready.pageCacheMib} MiB for the collector`)
      }
    )
    const principals = new Principals(store.users)
    const throttle = options.loginThrottle ?? new LoginThrottle()
    // Writes can fail for lack of space at any time (issue 12): everything that writes reports here.
    const storage = new StorageHealth(log)
    const refusedAgents = new RefusedAgents()
    const authenticator = new BasicAuthenticator(store.users, principals, throttle, store.auditLog, (write) => storage.bestEffort(write))
    const serverSettings = store.serverSettings
    if (options.breakGlassUser !== undefined) {
      const user = store.users.findByName(options.breakGlassUser)
      if (!user || !store.users.isAdmin(user.id)) {
        log.warn(
          `--break-glass-user ${options.breakGlassUser} is not an administrator here: if single sign-on fails, no administrator can log in from a browser`
        )
      }
    }
    const sessions = new SessionService(
      store.sessions,
      () => serverSettings.sessionTimeoutSec(),
      undefined,
      (write) => storage.bestEffort(write)
    )
    const apiTokens = new ApiTokenService(store.apiTokens, principals, undefined, (write) => storage.bestEffort(write))
    const desktop = options.parent && desktopNotifier(options.parent)
    // PostgreSQL: the pure reads run on threads of their own, so that a slow one holds no other request.
    reads =
      store.sql.engine === 'postgres'
        ? new ReadThreads(
            {
              database: store.location,
              lockTimeoutMs: storeOptions.lockTimeoutMs,
              stallMs: storeOptions.stallMs,
              slowMs: SLOW_STATEMENT_MS
            },
            {
              threads: options.databaseReadThreads ?? DEFAULT_READ_THREADS,
              waitMs: options.databaseReadWaitMs ?? DEFAULT_READ_WAIT_MS,
              onSlow: databaseWaits.waited
            }
          )
        : undefined
    const mmonitImport = new MMonitImportJob({ database: store.location, keyFile }, log, () => store.permissionsChanged())
    const routes: string[] = []
    // Where links and the single sign-on callback point: known once the server listens.
    const listening: { consoleUrl?: string } = {}
    const consoleUrlOf = () => (listening.consoleUrl ?? options.consoleUrl ?? '').replace(/\/$/, '')
    const app = await buildApp({
      store,
      collector: ingest,
      authenticator,
      throttle,
      sessions,
      principals,
      apiTokens,
      endpoints: allEndpoints(
        {
          store,
          sessions,
          apiTokens,
          secrets,
          feed,
          principals,
          throttle,
          alertChannelTypes: options.alertChannelTypes,
          desktop,
          mmonitImport,
          refusedAgents,
          oidc: options.oidc,
          breakGlassUser: options.breakGlassUser
        },
        version
      ),
      checkAnswers: options.checkAnswers,
      reads,
      onRoute: (url) => routes.push(url),
      log,
      accessLog: options.accessLog,
      version,
      consoleDir: options.consoleDir,
      collectorLimits,
      httpLimits: httpLimitsWith(options.httpLimits),
      collectorStats: new CollectorStats(),
      storage,
      databaseWaits,
      refusedAgents,
      metricsEnabled: options.metrics !== false,
      tls,
      trustedProxies: new TrustedProxies(options.trustedProxies),
      plainHttp: tls && options.httpPort !== undefined ? { host: options.host, port: options.httpPort } : undefined,
      oidc: options.oidc && new OidcClient(options.oidc, () => `${consoleUrlOf()}${SSO_CALLBACK_PATH}`),
      breakGlassUser: options.breakGlassUser
    })
    // A port chosen by flag or environment wins; else the one stored from the console's settings.
    const wantedPort = options.portChosen === false ? (serverSettings.port() ?? options.port) : options.port
    await app.listen({ host: options.host, port: wantedPort })
    const address = app.server.address()
    const port = typeof address === 'object' && address ? address.port : wantedPort
    reads?.warm()
    // The server runs from here: the time before (down, or starting) is unknown to uptime reports, and
    // every agent gets a full heartbeat deadline from now (issue 12).
    const urls = listeningUrls(options.host, port, tls ? 'https' : 'http')
    // Kept simple: without --console-url, links point at the first address the server listens on.
    const consoleUrl = options.consoleUrl ?? urls[0] ?? `http://localhost:${port}`
    listening.consoleUrl = consoleUrl
    const jobReporting = { log, onError: (err: unknown) => storage.writeFailed(err) }
    // Several instances share only a PostgreSQL database: there alone does one record for the others whether its collector stores.
    const severalInstances = store.sql.engine === 'postgres'
    // On PostgreSQL the statements of the jobs (the watchdog, the rollup, the session sweep, the retention,
    // the forecasts, the alert outbox, the run log) run on a thread of their own: their waits on the
    // database (a lock, a slow statement) never hold the event loop.
    const jobsThread = severalInstances
      ? new JobsThread({ database: store.location, lockTimeoutMs: storeOptions.lockTimeoutMs, consoleUrl })
      : undefined
    const runLog = new ServerRunLog(
      jobsThread?.repository('serverRuns') ?? store.serverRuns,
      jobReporting,
      Date.now,
      severalInstances ? storage : undefined
    )
    runLog.start()
    // Several instances on one PostgreSQL database: these jobs run in the one holding the lease.
    const lease = store.openJobLease((line) => log.info(line))
    await lease.refresh() // taken now by the first instance to start, rather than at its jobs' first pass
    const onceForDatabase = { ...jobReporting, lease }
    // Its first pass gives every agent a full heartbeat deadline (issue 12), as does a pass after a gap.
    // Held while this instance's collector cannot store, or another's (several instances on PostgreSQL).
    const watchdog = jobsThread ? watchdogOnThread(jobsThread, feed, storage, () => runLog.id) : new HeartbeatWatchdog(store, feed, storage)
    watchdog.start(options.watchdogIntervalMs, onceForDatabase)
    const rollup = new HistoryRollupJob(
      jobsThread ? { slice: (now, budgetMs) => jobsThread.rollupSlice(now, budgetMs) } : new Rollup(store.history, store.sql),
      options.historyRollup ?? {},
      onceForDatabase
    )
    rollup.start()
    const sessionSweep = new SessionSweepJob(
      jobsThread ? (nowSec) => jobsThread.sessionSweep(nowSec) : (nowSec) => sessions.sweepExpired(nowSec),
      onceForDatabase
    )
    sessionSweep.start()
    const eventRetention = new EventRetentionJob(
      jobsThread ? (nowSec) => jobsThread.retentionBatch(nowSec) : (nowSec) => pruneExpiredBatch(store, nowSec),
      onceForDatabase
    )
    eventRetention.start()
    const forecasts = new ForecastJob(
      {
        slice: jobsThread ? (now, afterId) => jobsThread.forecastSlice(now, afterId) : (now, afterId) => forecastSlice(store, now, afterId)
      },
      onceForDatabase
    )
    forecasts.start()
    const pull = new PullJob(
      jobsThread?.repository('pulledAgents') ?? store.pulledAgents,
      secrets,
      (request) => ingest!.collect(request),
      onceForDatabase
    )
    pull.start()
    const alerts = new AlertDeliveryJob(
      store,
      secrets,
      { consoleUrl, channelTypes: options.alertChannelTypes, desktop, now: options.alertDeliveryNow },
      onceForDatabase,
      jobsThread && {
        run: (nowMs, sending) => jobsThread.alertPass(nowMs, sending),
        record: (n, result, nowMs) => jobsThread.alertRecord(n, result, nowMs)
      }
    )
    alerts.start()
    const stopBridge = options.parent && startDesktopBridge(store, feed, options.parent)
    return {
      port,
      urls,
      store,
      routes,
      tlsFingerprint: tls?.current.fingerprint,
      async close() {
        watchdog.stop()
        rollup.stop()
        sessionSweep.stop()
        eventRetention.stop()
        forecasts.stop()
        pull.stop()
        // The sends' results and the clean stop are recorded through the jobs' thread: it closes after them.
        await alerts.stop()
        await runLog.stop()
        await jobsThread?.close()
        await mmonitImport.close()
        lease.close()
        stopBridge?.()
        await app.close()
        await reads?.close()
        tls?.close()
        await ingest!.close()
        await changes?.close()
        store.close()
        databaseWaits.close()
      }
    }
  } catch (err) {
    tls?.close()
    await reads?.close()
    await ingest?.close()
    await changes?.close()
    store.close()
    databaseWaits.close()
    throw err
  }
}
