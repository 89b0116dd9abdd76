import { describe, expect, it } from 'vitest'
import { ConfigError, defaultDataDir, parseConfig } from '../../src/server/config'

describe('server configuration', () => {
  it('defaults to 0.0.0.0:8080 and the per-user data folder', () => {
    expect(parseConfig([], {})).toEqual({
      host: '0.0.0.0',
      port: 8080,
      portChosen: false,
      dataDir: defaultDataDir(),
      initAdmin: undefined,
      initCollector: undefined,
      metrics: true
    })
  })

  it('reads flags, and environment variables where no flag is given', () => {
    const env = { OVERSEER_PORT: '9000', OVERSEER_HOST: '127.0.0.1', OVERSEER_INIT_COLLECTOR: 'monit:abc123' }
    expect(parseConfig(['--port', '9100', '--data-dir', '/tmp/x', '--init-admin', 'admin:pa:ss'], env)).toEqual({
      host: '127.0.0.1',
      port: 9100,
      portChosen: true,
      dataDir: '/tmp/x',
      initAdmin: { user: 'admin', password: 'pa:ss' },
      initCollector: { user: 'monit', password: 'abc123' },
      metrics: true
    })
  })

  it('turns /metrics off with --metrics off or OVERSEER_METRICS=off', () => {
    expect(parseConfig(['--metrics', 'off'], {}).metrics).toBe(false)
    expect(parseConfig([], { OVERSEER_METRICS: 'off' }).metrics).toBe(false)
    expect(() => parseConfig(['--metrics', 'maybe'], {})).toThrow(/--metrics must be on or off/)
  })

  it('takes the console URL for alert links from --console-url or OVERSEER_CONSOLE_URL', () => {
    expect(parseConfig([], {}).consoleUrl).toBeUndefined()
    expect(parseConfig(['--console-url', 'https://mon.example/overseer'], {}).consoleUrl).toBe('https://mon.example/overseer')
    expect(parseConfig([], { OVERSEER_CONSOLE_URL: 'http://10.0.0.5:8080' }).consoleUrl).toBe('http://10.0.0.5:8080')
    expect(() => parseConfig(['--console-url', 'mon.example'], {})).toThrow(/--console-url must be an http/)
  })

  it("takes the log level, the log format and the access log from flags or the environment; absent, the logger's defaults", () => {
    expect(parseConfig([], {})).toMatchObject({ logLevel: undefined, logFormat: undefined, accessLog: undefined })
    expect(parseConfig(['--log-level', 'debug', '--log-format', 'json', '--access-log', 'on'], {})).toMatchObject({
      logLevel: 'debug',
      logFormat: 'json',
      accessLog: true
    })
    expect(parseConfig([], { OVERSEER_LOG_LEVEL: 'warn', OVERSEER_LOG_FORMAT: 'text', OVERSEER_ACCESS_LOG: 'off' })).toMatchObject({
      logLevel: 'warn',
      logFormat: 'text',
      accessLog: false
    })
  })

  it("takes each database connection's page cache in MiB from --cache-size or OVERSEER_CACHE_SIZE; absent, the store's default", () => {
    expect(parseConfig([], {}).cacheSizeMib).toBeUndefined()
    expect(parseConfig(['--cache-size', '8'], { OVERSEER_CACHE_SIZE: '32' }).cacheSizeMib).toBe(8)
    expect(parseConfig([], { OVERSEER_CACHE_SIZE: '32' }).cacheSizeMib).toBe(32)
  })

  it('takes timeouts in seconds and connection caps from flags or the environment; absent, the defaults', () => {
    expect(parseConfig([], {}).httpLimits).toBeUndefined()
    expect(
      parseConfig(['--headers-timeout', '5', '--request-timeout', '12.5', '--max-connections', '20000'], {
        OVERSEER_MAX_CONNECTIONS_PER_ADDRESS: '1000',
        OVERSEER_MAX_CONNECTIONS: '10'
      }).httpLimits
    ).toEqual({ headersTimeoutMs: 5000, requestTimeoutMs: 12_500, maxConnections: 20_000, maxConnectionsPerAddress: 1000 })
  })

  it('takes the PostgreSQL stall time in seconds from --database-stall-time or OVERSEER_DATABASE_STALL_TIME', () => {
    expect(parseConfig([], {}).databaseStallMs).toBeUndefined()
    expect(parseConfig(['--database-stall-time', '0.5'], {}).databaseStallMs).toBe(500)
    expect(parseConfig([], { OVERSEER_DATABASE_STALL_TIME: '1' }).databaseStallMs).toBe(1000)
  })

  it("takes the HTTP thread's PostgreSQL statement timeout in seconds from --database-statement-timeout or OVERSEER_DATABASE_STATEMENT_TIMEOUT", () => {
    expect(parseConfig([], {}).databaseStatementTimeoutMs).toBeUndefined()
    expect(parseConfig(['--database-statement-timeout', '30'], {}).databaseStatementTimeoutMs).toBe(30_000)
    expect(parseConfig([], { OVERSEER_DATABASE_STATEMENT_TIMEOUT: '2.5' }).databaseStatementTimeoutMs).toBe(2_500)
  })

  it('takes the PostgreSQL read wait in seconds and the read threads from --database-read-wait/-threads or the environment', () => {
    expect(parseConfig([], {})).toMatchObject({ databaseReadWaitMs: undefined, databaseReadThreads: undefined })
    expect(parseConfig(['--database-read-wait', '2.5', '--database-read-threads', '4'], {})).toMatchObject({
      databaseReadWaitMs: 2_500,
      databaseReadThreads: 4
    })
    expect(parseConfig([], { OVERSEER_DATABASE_READ_WAIT: '1', OVERSEER_DATABASE_READ_THREADS: '1' })).toMatchObject({
      databaseReadWaitMs: 1_000,
      databaseReadThreads: 1
    })
  })

  it('takes the PostgreSQL lock timeout in seconds from --database-lock-timeout or OVERSEER_DATABASE_LOCK_TIMEOUT', () => {
    expect(parseConfig([], {}).databaseLockTimeoutMs).toBeUndefined()
    expect(parseConfig(['--database-lock-timeout', '2.5'], {}).databaseLockTimeoutMs).toBe(2500)
    expect(parseConfig([], { OVERSEER_DATABASE_LOCK_TIMEOUT: '1' }).databaseLockTimeoutMs).toBe(1000)
  })

  it('takes the collector budget of bodies in flight in MiB from --collector-in-flight or OVERSEER_COLLECTOR_IN_FLIGHT', () => {
    expect(parseConfig([], {}).collectorLimits).toBeUndefined()
    expect(parseConfig([], { OVERSEER_COLLECTOR_IN_FLIGHT: '64' }).collectorLimits).toEqual({ maxBodyBytesInFlight: 64 * 2 ** 20 })
  })

  it('takes TLS, trusted proxies and the plain-HTTP port from flags or the environment', () => {
    expect(parseConfig([], {})).toMatchObject({ tls: undefined, trustedProxies: undefined, httpPort: undefined })
    expect(parseConfig(['--tls', 'self-signed'], {}).tls).toEqual({ selfSigned: true })
    expect(parseConfig([], { OVERSEER_TLS_CERT: '/c.pem', OVERSEER_TLS_KEY: '/k.pem' }).tls).toEqual({
      certFile: '/c.pem',
      keyFile: '/k.pem'
    })
    expect(parseConfig(['--tls', 'off'], { OVERSEER_TLS: 'self-signed' }).tls).toBeUndefined()
    expect(parseConfig(['--trusted-proxy', '127.0.0.1, 10.0.0.0/8,::1'], {}).trustedProxies).toEqual(['127.0.0.1', '10.0.0.0/8', '::1'])
    expect(parseConfig(['--tls', 'self-signed'], { OVERSEER_HTTP_PORT: '8081' }).httpPort).toBe(8081)
  })

  it('takes single sign-on and the break-glass password login from flags or the environment', () => {
    const oidc = ['--oidc-issuer', 'https://id.example.com/realms/ops', '--oidc-client-id', 'overseer']
    const env = { OVERSEER_OIDC_CLIENT_SECRET: 's3cret', OVERSEER_OIDC_LINK_EMAIL: 'on' }
    expect(parseConfig([...oidc, '--password-login', 'break-glass', '--break-glass-user', 'root'], env)).toMatchObject({
      oidc: {
        issuer: 'https://id.example.com/realms/ops',
        clientId: 'overseer',
        clientSecret: 's3cret',
        groupsClaim: 'groups',
        linkByEmail: true
      },
      breakGlassUser: 'root'
    })
    expect(
      parseConfig(
        ['--oidc-issuer', 'http://127.0.0.1:9000', '--oidc-client-id', 'x', '--oidc-client-secret', 'y', '--oidc-groups-claim', 'roles'],
        {}
      ).oidc
    ).toMatchObject({ groupsClaim: 'roles', linkByEmail: false })
  })

  it.each([
    [['--oidc-issuer', 'http://id.example.com'], /--oidc-issuer must be an https:\/\/ URL \(http:\/\/ only on loopback\)/],
    [['--oidc-issuer', 'https://id.example.com'], /--oidc-issuer, --oidc-client-id and --oidc-client-secret go together/],
    [['--password-login', 'break-glass', '--break-glass-user', 'root'], /--password-login break-glass needs single sign-on/],
    [
      ['--oidc-issuer', 'https://i.example', '--oidc-client-id', 'a', '--oidc-client-secret', 'b', '--password-login', 'break-glass'],
      /needs --break-glass-user/
    ],
    [['--break-glass-user', 'root'], /--break-glass-user goes with --password-login break-glass/],
    [['--password-login', 'off'], /--password-login must be on or break-glass/],
    [['--tls', 'yes'], /--tls must be self-signed or off/],
    [['--tls-cert', '/c.pem'], /--tls-cert and --tls-key go together/],
    [['--tls', 'self-signed', '--tls-cert', '/c.pem', '--tls-key', '/k.pem'], /exclude each other/],
    [['--trusted-proxy', 'proxy.lan'], /--trusted-proxy must be a comma-separated list of IP addresses or networks/],
    [['--trusted-proxy', '10.0.0.0/33'], /--trusted-proxy must be/],
    [['--http-port', '8081'], /--http-port is the plain-HTTP listener beside HTTPS: give --tls too/],
    [['--headers-timeout', '0'], /--headers-timeout must be more than 0 seconds/],
    [['--database-lock-timeout', '0'], /--database-lock-timeout must be more than 0 seconds/],
    [['--database-stall-time', 'soon'], /--database-stall-time must be a number of seconds/],
    [['--database-statement-timeout', '0'], /--database-statement-timeout must be more than 0 seconds/],
    [['--database-read-wait', '0'], /--database-read-wait must be more than 0 seconds/],
    [['--database-read-threads', '0'], /--database-read-threads must be 1–32/],
    [['--database-read-threads', '33'], /--database-read-threads must be 1–32/],
    [['--database-read-threads', '1.5'], /--database-read-threads must be a whole number/],
    [['--request-timeout', 'soon'], /--request-timeout must be a number of seconds/],
    [['--max-connections', '0'], /--max-connections must be 1 or more/],
    [['--max-connections-per-address', '2.5'], /--max-connections-per-address must be a whole number/],
    [['--collector-in-flight', '0'], /--collector-in-flight must be 1 MiB or more/],
    [['--cache-size', 'lots'], /--cache-size must be a number of MiB/],
    [['--cache-size', '1.5'], /--cache-size must be a whole number of MiB/],
    [['--cache-size', '0'], /--cache-size must be 1 MiB or more/],
    [['--cache-size', '65537'], /--cache-size must be at most 65536 MiB/],
    [['--log-level', 'loud'], /--log-level must be one of fatal, error, warn, info, debug, trace, silent/],
    [['--log-format', 'xml'], /--log-format must be text or json/],
    [['--access-log', 'yes'], /--access-log must be on or off/],
    [['--port', 'eighty'], /--port must be a number/],
    [['--port', '70000'], /--port must be 0–65535/],
    [['--init-admin', 'adminonly'], /--init-admin must be USER:PASSWORD/],
    [['--init-collector', ':pw'], /--init-collector must be USER:PASSWORD/],
    [['--colour', 'blue'], /Unknown option '--colour'/],
    [['stray'], /positional/]
  ])('rejects %j with a clear message', (argv, message) => {
    expect(() => parseConfig(argv, {})).toThrow(ConfigError)
    expect(() => parseConfig(argv, {})).toThrow(message)
  })

  it('places data where Electron keeps userData on each OS', () => {
    expect(defaultDataDir('linux', {}, '/home/ann')).toBe('/home/ann/.config/Overseer')
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/cfg' }, '/home/ann')).toBe('/cfg/Overseer')
    expect(defaultDataDir('darwin', {}, '/Users/ann')).toBe('/Users/ann/Library/Application Support/Overseer')
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'C:\\Users\\ann')).toMatch(/Roaming.Overseer$/)
  })
})
