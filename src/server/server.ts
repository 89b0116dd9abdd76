// Starts and stops the whole server: store, jobs and HTTP. Used by the headless entry (main.ts), the
// Electron shell (through that entry) and the tests.
import { networkInterfaces } from 'node:os'
import { join } from 'node:path'
import { BasicAuthenticator } from './auth/basic-auth'
import { Principals } from './auth/principals'
import { SecretBox } from './auth/secret-box'
import { SessionService } from './auth/sessions'
import { createInitialUsers } from './bootstrap-users'
import { Ingest } from './collector/ingest'
import { defaultCollectorLimits, type CollectorLimits } from './collector/route'
import type { ServerConfig } from './config'
import { startDesktopBridge, type ParentChannel } from './desktop-bridge'
import { apiEndpoints } from './api/endpoints'
import { buildApp } from './http/app'
import { HeartbeatWatchdog } from './jobs/heartbeat-watchdog'
import { ChangeFeed } from './live/change-feed'
import type { Logger } from './log'
import { CollectorStats } from './metrics/collector-stats'
import { Store } from './store/store'

export const DATABASE_FILE = 'overseer.sqlite'
const VERSION = '0.1.0'

export interface RunningServer {
  port: number
  /** One URL per listening address. */
  urls: string[]
  store: Store
  close(): Promise<void>
}

export interface ServerOptions extends ServerConfig {
  log: Logger
  collectorLimits?: CollectorLimits
  watchdogIntervalMs?: number
  consoleDir?: string
  /** The desktop shell that started this process: told about LEDs and new alerts (desktop-bridge.ts). */
  parent?: ParentChannel
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { log } = options
  const store = new Store(join(options.dataDir, DATABASE_FILE), log.info)
  try {
    createInitialUsers(store.users, options, log)
    const secrets = SecretBox.fromKeyFile(join(options.dataDir, 'secret.key'))
    const feed = new ChangeFeed()
    const ingest = new Ingest(store, secrets, feed)
    const principals = new Principals(store.users)
    const authenticator = new BasicAuthenticator(store.users, principals)
    const sessions = new SessionService(store.sessions)
    const app = await buildApp({
      store, ingest, authenticator, sessions, principals, feed, endpoints: apiEndpoints({ store, sessions, secrets, feed }),
      log, version: VERSION, consoleDir: options.consoleDir,
      collectorLimits: options.collectorLimits ?? defaultCollectorLimits,
      collectorStats: new CollectorStats(), metricsEnabled: options.metrics !== false
    })
    await app.listen({ host: options.host, port: options.port })
    const address = app.server.address()
    const port = typeof address === 'object' && address ? address.port : options.port
    const watchdog = new HeartbeatWatchdog(store, feed)
    watchdog.start(options.watchdogIntervalMs)
    const stopBridge = options.parent && startDesktopBridge(store, feed, options.parent)
    return {
      port,
      urls: listeningUrls(options.host, port),
      store,
      async close() {
        watchdog.stop()
        stopBridge?.()
        await app.close()
        store.close()
      }
    }
  } catch (err) {
    store.close()
    throw err
  }
}

/** A wildcard address listens on every interface: name each, so users know what agents can reach. */
function listeningUrls(host: string, port: number): string[] {
  const wildcard = host === '0.0.0.0' || host === '::'
  const hosts = wildcard
    ? Object.values(networkInterfaces()).flat()
      .filter((i) => i && (host === '::' || i.family === 'IPv4'))
      .map((i) => (i!.family === 'IPv6' ? `[${i!.address}]` : i!.address))
    : [host.includes(':') ? `[${host}]` : host]
  return hosts.map((h) => `http://${h}:${port}`)
}
