// Headless entry: `node out/main/server.js [--host H] [--port P] [--data-dir D] [--init-admin U:P] [--init-collector U:P]
// [--log-level L] [--log-format text|json] [--access-log on|off]` (config.ts has them all);
// `node out/main/server.js migrate --from … --to …` copies a database between engines instead (tools/migrate-command.ts);
// `node out/main/server.js import-mmonit --from …` imports an M/Monit database (tools/import-mmonit/command.ts).
// When started by a parent (the Electron shell's utility process, tests' fork), it reports
// {type: 'ready', port, urls}, or {type: 'error', code: 'EADDRINUSE'} and exit status 3 when the port is taken.
import { join } from 'node:path'
import { EXIT_PORT_IN_USE } from '../shared/desktop-api'
import { ConfigError, parseConfig } from './config'
import { parentChannel } from './desktop-bridge'
import { firstRunHint } from './http/setup'
import { createLogger } from './log'
import { startServer } from './server'
import { runImportCommand } from './tools/import-mmonit/command'
import { runMigrateCommand } from './tools/migrate-command'
import { capYoungGeneration } from './young-generation'

async function main(): Promise<void> {
  let config
  try {
    config = parseConfig(process.argv.slice(2), process.env)
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    createLogger().error(`invalid configuration: ${err.message}`)
    process.exit(2)
  }
  const log = createLogger({ level: config.logLevel, format: config.logFormat })
  const parent = parentChannel()
  // A stop asked for while starting (the user quit meanwhile) is carried out once the server is up.
  let stopRequested = false
  let stop: (why: string) => void = () => {
    stopRequested = true
  }
  parent?.onStopRequest(() => stop('stop request from the parent process'))
  let server
  capYoungGeneration()
  try {
    // Bundled as out/main/server.js, beside out/renderer.
    server = await startServer({ ...config, log, parent, consoleDir: join(__dirname, '../renderer') })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err
    const port = (err as { port?: number }).port ?? config.port
    const message = `port ${port} is already in use on ${config.host}: stop the program using it or choose another --port`
    log.error(message)
    await parent?.send({ type: 'error', code: 'EADDRINUSE', port, message })
    process.exit(EXIT_PORT_IN_USE)
  }
  log.info(`data directory ${config.dataDir}`)
  for (const url of server.urls) log.info(`listening on ${url}`)
  if (server.store.users.count() === 0)
    log.warn(firstRunHint(config.host, server.port, server.urls[0]?.startsWith('https') ? 'https' : 'http'))
  void parent?.send({ type: 'ready', port: server.port, urls: server.urls, tlsFingerprint: server.tlsFingerprint })

  let stopping = false
  const running = server
  stop = (signal: string) => {
    if (stopping) return
    stopping = true
    log.info(`${signal} received, shutting down`)
    running.close().then(
      () => process.exit(0),
      (err: Error) => {
        log.error(`shutdown failed: ${err.message}`)
        process.exit(1)
      }
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
  if (stopRequested) stop('stop request from the parent process')
}

if (process.argv[2] === 'migrate') {
  void runMigrateCommand(process.argv.slice(3)).then((status) => process.exit(status))
} else if (process.argv[2] === 'import-mmonit') {
  void runImportCommand(process.argv.slice(3)).then((status) => process.exit(status))
} else {
  main().catch((err: Error) => {
    createLogger().error(`server failed to start: ${err.message}`)
    process.exit(1)
  })
}
