// Server settings from command-line flags, each also readable from an environment variable.
import { homedir } from 'node:os'
import { join } from 'node:path'
import { isIP } from 'node:net'
import { parseArgs } from 'node:util'
import { z } from 'zod'
import type { CollectorLimits } from './collector/request-body'
import { loopbackHttp, type OidcSettings } from './domain/single-sign-on'
import type { HttpLimits } from './http/http-limits'
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from './log'
import type { TlsSource } from './tls/tls-files'

export const APP_NAME = 'Overseer'

export interface ServerConfig {
  host: string
  port: number
  /**
   * False when neither --port nor OVERSEER_PORT was given: a port stored from the console's settings
   * then wins over the default. Absent (callers that pass a port directly) counts as chosen.
   */
  portChosen?: boolean
  dataDir: string
  /** A PostgreSQL URL; absent: the SQLite file in the data folder. */
  database?: string
  initAdmin?: UserSpec
  initCollector?: UserSpec
  /** Serve /metrics; absent means on. */
  metrics?: boolean
  /** The console's address as people reach it, for the links in alerts; absent: the first listening URL. */
  consoleUrl?: string
  /** Absent: info (log.ts). */
  logLevel?: LogLevel
  /** One text line per record, or JSON; absent: text. */
  logFormat?: LogFormat
  /** One log line per answered request; absent means off. */
  accessLog?: boolean
  /** The SQLite page cache of each of the server's two database connections, in MiB; absent: the store's default. */
  cacheSizeMib?: number
  /** PostgreSQL: how long a statement waits for a lock another session holds; absent: DEFAULT_LOCK_TIMEOUT_MS. */
  databaseLockTimeoutMs?: number
  /** PostgreSQL: how long the HTTP thread waits on a statement before looking whether it is stuck; absent: DEFAULT_STALL_MS. */
  databaseStallMs?: number
  /** PostgreSQL: how long a statement of the HTTP thread may run; absent: DEFAULT_HTTP_STATEMENT_TIMEOUT_MS. */
  databaseStatementTimeoutMs?: number
  /** PostgreSQL: how long a read of the console or the API may take on its read thread; absent: DEFAULT_READ_WAIT_MS. */
  databaseReadWaitMs?: number
  /** PostgreSQL: how many read threads; absent: DEFAULT_READ_THREADS. */
  databaseReadThreads?: number
  /** Timeouts and connection caps chosen by flag; the others keep their defaults (http/http-limits.ts). */
  httpLimits?: Partial<HttpLimits>
  /** Any limit left out keeps its default (collector/request-body.ts). */
  collectorLimits?: Partial<CollectorLimits>
  /** Serve HTTPS: with the given PEM files, or a self-signed certificate kept in the data folder. Absent: HTTP. */
  tls?: TlsSource
  /** Addresses or networks of reverse proxies whose X-Forwarded-For/-Proto/-Host are believed. */
  trustedProxies?: string[]
  /** With TLS: a plain-HTTP port serving only POST /collector (agents that cannot do TLS) and redirects. */
  httpPort?: number
  /** Single sign-on with OpenID Connect (--oidc-*); absent: off. */
  oidc?: OidcSettings
  /** Password login for browsers kept only for this user (--password-login break-glass); absent: for everyone. */
  breakGlassUser?: string
}

export interface UserSpec {
  user: string
  password: string
}

/** Flag → environment variable. docs/configuration.md lists the same table. */
export const settings = {
  host: 'OVERSEER_HOST',
  port: 'OVERSEER_PORT',
  'data-dir': 'OVERSEER_DATA_DIR',
  database: 'OVERSEER_DATABASE',
  'init-admin': 'OVERSEER_INIT_ADMIN',
  'init-collector': 'OVERSEER_INIT_COLLECTOR',
  metrics: 'OVERSEER_METRICS',
  'console-url': 'OVERSEER_CONSOLE_URL',
  'log-level': 'OVERSEER_LOG_LEVEL',
  'log-format': 'OVERSEER_LOG_FORMAT',
  'access-log': 'OVERSEER_ACCESS_LOG',
  'cache-size': 'OVERSEER_CACHE_SIZE',
  'database-lock-timeout': 'OVERSEER_DATABASE_LOCK_TIMEOUT',
  'database-stall-time': 'OVERSEER_DATABASE_STALL_TIME',
  'database-statement-timeout': 'OVERSEER_DATABASE_STATEMENT_TIMEOUT',
  'database-read-wait': 'OVERSEER_DATABASE_READ_WAIT',
  'database-read-threads': 'OVERSEER_DATABASE_READ_THREADS',
  'headers-timeout': 'OVERSEER_HEADERS_TIMEOUT',
  'request-timeout': 'OVERSEER_REQUEST_TIMEOUT',
  'max-connections': 'OVERSEER_MAX_CONNECTIONS',
  'max-connections-per-address': 'OVERSEER_MAX_CONNECTIONS_PER_ADDRESS',
  'collector-in-flight': 'OVERSEER_COLLECTOR_IN_FLIGHT',
  tls: 'OVERSEER_TLS',
  'tls-cert': 'OVERSEER_TLS_CERT',
  'tls-key': 'OVERSEER_TLS_KEY',
  'trusted-proxy': 'OVERSEER_TRUSTED_PROXY',
  'http-port': 'OVERSEER_HTTP_PORT',
  'oidc-issuer': 'OVERSEER_OIDC_ISSUER',
  'oidc-client-id': 'OVERSEER_OIDC_CLIENT_ID',
  'oidc-client-secret': 'OVERSEER_OIDC_CLIENT_SECRET',
  'oidc-groups-claim': 'OVERSEER_OIDC_GROUPS_CLAIM',
  'oidc-link-email': 'OVERSEER_OIDC_LINK_EMAIL',
  'password-login': 'OVERSEER_PASSWORD_LOGIN',
  'break-glass-user': 'OVERSEER_BREAK_GLASS_USER'
} as const

export class ConfigError extends Error {}

/** A size in MiB larger than this is surely a typo (a size in KiB, or in bytes). */
const MAX_MIB = 65536

const userSpec = (flag: string) =>
  z.string().transform((text, ctx): UserSpec => {
    const colon = text.indexOf(':')
    if (colon <= 0 || colon === text.length - 1) {
      ctx.addIssue({ code: 'custom', message: `--${flag} must be USER:PASSWORD with both parts non-empty` })
      return z.NEVER
    }
    return { user: text.slice(0, colon), password: text.slice(colon + 1) }
  })

const seconds = (flag: string) =>
  z.coerce
    .number({ message: `--${flag} must be a number of seconds` })
    .positive(`--${flag} must be more than 0 seconds`)
    .max(3600, `--${flag} must be at most 3600 seconds`)
    .optional()

const count = (flag: string) =>
  z.coerce
    .number({ message: `--${flag} must be a number` })
    .int(`--${flag} must be a whole number`)
    .min(1, `--${flag} must be 1 or more`)
    .optional()

const schema = z.object({
  host: z.string().min(1).default('0.0.0.0'),
  port: z.coerce.number({ message: '--port must be a number' }).int().min(0).max(65535, '--port must be 0–65535').default(8080),
  'data-dir': z
    .string()
    .min(1)
    .default(() => defaultDataDir()),
  database: z
    .string()
    .regex(/^(sqlite|postgres(ql)?:\/\/.+)$/i, { message: '--database must be sqlite or a postgres://user:password@host:port/db URL' })
    .optional(),
  'init-admin': userSpec('init-admin').optional(),
  'init-collector': userSpec('init-collector').optional(),
  metrics: z.enum(['on', 'off'], { message: '--metrics must be on or off' }).default('on'),
  'console-url': z
    .string()
    .regex(/^https?:\/\/[^/]/, { message: '--console-url must be an http:// or https:// URL' })
    .optional(),
  'log-level': z.enum(LOG_LEVELS, { message: `--log-level must be one of ${LOG_LEVELS.join(', ')}` }).optional(),
  'log-format': z.enum(LOG_FORMATS, { message: '--log-format must be text or json' }).optional(),
  'access-log': z.enum(['on', 'off'], { message: '--access-log must be on or off' }).optional(),
  'cache-size': z.coerce
    .number({ message: '--cache-size must be a number of MiB' })
    .int('--cache-size must be a whole number of MiB')
    .min(1, '--cache-size must be 1 MiB or more')
    .max(MAX_MIB, `--cache-size must be at most ${MAX_MIB} MiB`)
    .optional(),
  'headers-timeout': seconds('headers-timeout'),
  'database-lock-timeout': seconds('database-lock-timeout'),
  'database-stall-time': seconds('database-stall-time'),
  'database-statement-timeout': seconds('database-statement-timeout'),
  'database-read-wait': seconds('database-read-wait'),
  'database-read-threads': z.coerce
    .number({ message: '--database-read-threads must be a number' })
    .int('--database-read-threads must be a whole number')
    .min(1, '--database-read-threads must be 1–32')
    .max(32, '--database-read-threads must be 1–32')
    .optional(),
  'request-timeout': seconds('request-timeout'),
  'max-connections': count('max-connections'),
  'max-connections-per-address': count('max-connections-per-address'),
  'collector-in-flight': z.coerce
    .number({ message: '--collector-in-flight must be a number of MiB' })
    .int('--collector-in-flight must be a whole number of MiB')
    .min(1, '--collector-in-flight must be 1 MiB or more')
    .max(MAX_MIB, `--collector-in-flight must be at most ${MAX_MIB} MiB`)
    .optional(),
  tls: z.enum(['self-signed', 'off'], { message: '--tls must be self-signed or off (or give --tls-cert and --tls-key)' }).optional(),
  'tls-cert': z.string().min(1).optional(),
  'tls-key': z.string().min(1).optional(),
  'trusted-proxy': z
    .string()
    .transform((text) => text.split(',').map((entry) => entry.trim()))
    .refine((entries) => entries.every(isAddressOrNetwork), {
      message: '--trusted-proxy must be a comma-separated list of IP addresses or networks (10.0.0.0/8)'
    })
    .optional(),
  'http-port': z.coerce
    .number({ message: '--http-port must be a number' })
    .int()
    .min(0)
    .max(65535, '--http-port must be 0–65535')
    .optional(),
  'oidc-issuer': z
    .string()
    .refine((text) => URL.canParse(text) && (new URL(text).protocol === 'https:' || loopbackHttp(new URL(text))), {
      message: '--oidc-issuer must be an https:// URL (http:// only on loopback)'
    })
    .optional(),
  'oidc-client-id': z.string().min(1).optional(),
  'oidc-client-secret': z.string().min(1).optional(),
  'oidc-groups-claim': z.string().min(1).default('groups'),
  'oidc-link-email': z.enum(['on', 'off'], { message: '--oidc-link-email must be on or off' }).default('off'),
  'password-login': z.enum(['on', 'break-glass'], { message: '--password-login must be on or break-glass' }).default('on'),
  'break-glass-user': z.string().min(1).optional()
})

export function parseConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ServerConfig {
  let values: Record<string, string | undefined>
  try {
    values = parseArgs({
      args: [...argv],
      options: Object.fromEntries(Object.keys(settings).map((k) => [k, { type: 'string' as const }])),
      strict: true,
      allowPositionals: false
    }).values as Record<string, string | undefined>
  } catch (err) {
    throw new ConfigError((err as Error).message)
  }
  const merged = Object.fromEntries(
    Object.entries(settings).map(([flag, variable]) => [flag, values[flag] ?? (env[variable] || undefined)])
  )
  const parsed = schema.safeParse(merged)
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => i.message).join('; '))
  const v = parsed.data
  return {
    host: v.host,
    port: v.port,
    portChosen: merged.port !== undefined,
    dataDir: v['data-dir'],
    database: v.database && v.database.toLowerCase() !== 'sqlite' ? v.database : undefined,
    initAdmin: v['init-admin'],
    initCollector: v['init-collector'],
    metrics: v.metrics === 'on',
    consoleUrl: v['console-url'],
    logLevel: v['log-level'],
    logFormat: v['log-format'],
    accessLog: v['access-log'] === undefined ? undefined : v['access-log'] === 'on',
    cacheSizeMib: v['cache-size'],
    databaseLockTimeoutMs: v['database-lock-timeout'] && v['database-lock-timeout'] * 1000,
    databaseStallMs: v['database-stall-time'] && v['database-stall-time'] * 1000,
    databaseStatementTimeoutMs: v['database-statement-timeout'] && v['database-statement-timeout'] * 1000,
    databaseReadWaitMs: v['database-read-wait'] && v['database-read-wait'] * 1000,
    databaseReadThreads: v['database-read-threads'],
    httpLimits: httpLimitsOf(v),
    collectorLimits: v['collector-in-flight'] === undefined ? undefined : { maxBodyBytesInFlight: v['collector-in-flight'] * 2 ** 20 },
    tls: tlsOf(v),
    trustedProxies: v['trusted-proxy'],
    httpPort: httpPortOf(v),
    oidc: oidcOf(v),
    breakGlassUser: breakGlassOf(v)
  }
}

function oidcOf(v: z.output<typeof schema>): OidcSettings | undefined {
  const issuer = v['oidc-issuer']
  const clientId = v['oidc-client-id']
  const clientSecret = v['oidc-client-secret']
  if (issuer === undefined && clientId === undefined && clientSecret === undefined) return undefined
  if (issuer === undefined || clientId === undefined || clientSecret === undefined) {
    throw new ConfigError('--oidc-issuer, --oidc-client-id and --oidc-client-secret go together')
  }
  return { issuer, clientId, clientSecret, groupsClaim: v['oidc-groups-claim'], linkByEmail: v['oidc-link-email'] === 'on' }
}

function breakGlassOf(v: z.output<typeof schema>): string | undefined {
  if (v['password-login'] === 'on') {
    if (v['break-glass-user'] !== undefined) throw new ConfigError('--break-glass-user goes with --password-login break-glass')
    return undefined
  }
  if (!oidcOf(v))
    throw new ConfigError('--password-login break-glass needs single sign-on (--oidc-issuer …): nobody could log in otherwise')
  if (v['break-glass-user'] === undefined)
    throw new ConfigError('--password-login break-glass needs --break-glass-user NAME, the administrator who keeps a password')
  return v['break-glass-user']
}

function tlsOf(v: z.output<typeof schema>): TlsSource | undefined {
  const certFile = v['tls-cert']
  const keyFile = v['tls-key']
  if ((certFile === undefined) !== (keyFile === undefined)) throw new ConfigError('--tls-cert and --tls-key go together')
  if (v.tls === 'off') return undefined
  if (certFile !== undefined && keyFile !== undefined) {
    if (v.tls === 'self-signed') throw new ConfigError('--tls self-signed and --tls-cert/--tls-key exclude each other')
    return { certFile, keyFile }
  }
  return v.tls === 'self-signed' ? { selfSigned: true } : undefined
}

function httpPortOf(v: z.output<typeof schema>): number | undefined {
  if (v['http-port'] !== undefined && !tlsOf(v))
    throw new ConfigError('--http-port is the plain-HTTP listener beside HTTPS: give --tls too')
  return v['http-port']
}

function isAddressOrNetwork(entry: string): boolean {
  const [address, bits, more] = entry.split('/')
  const family = isIP(address)
  if (family === 0 || more !== undefined) return false
  if (bits === undefined) return true
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
}

function httpLimitsOf(v: z.output<typeof schema>): Partial<HttpLimits> | undefined {
  const chosen: Partial<HttpLimits> = {
    headersTimeoutMs: v['headers-timeout'] && v['headers-timeout'] * 1000,
    requestTimeoutMs: v['request-timeout'] && v['request-timeout'] * 1000,
    maxConnections: v['max-connections'],
    maxConnectionsPerAddress: v['max-connections-per-address']
  }
  for (const key of Object.keys(chosen) as (keyof HttpLimits)[]) if (chosen[key] === undefined) delete chosen[key]
  return Object.keys(chosen).length > 0 ? chosen : undefined
}

/** The per-user application data folder; the same place Electron's `app.getPath('userData')` uses. */
export function defaultDataDir(platform = process.platform, env = process.env, home = homedir()): string {
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), APP_NAME)
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_NAME)
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), APP_NAME)
}
