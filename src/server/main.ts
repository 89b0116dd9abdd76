// Headless entry: `node out/main/server.js [--host H] [--port P] [--data-dir D] [--init-admin U:P] [--init-collector U:P]`.
// When forked with an IPC channel (the Electron shell, tests), it reports {type: 'ready', port, urls}.
import { join } from 'node:path'
import { ConfigError, parseConfig } from './config'
import { createLogger } from './log'
import { startServer } from './server'

async function main(): Promise<void> {
  const log = createLogger()
  let config
  try {
    config = parseConfig(process.argv.slice(2), process.env)
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    log.error(`invalid configuration: ${err.message}`)
    process.exit(2)
  }
  // Bundled as out/main/server.js, beside out/renderer.
  const server = await startServer({ ...config, log, consoleDir: join(__dirname, '../renderer') })
  log.info(`data directory ${config.dataDir}`)
  for (const url of server.urls) log.info(`listening on ${url}`)
  process.send?.({ type: 'ready', port: server.port, urls: server.urls })

  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    log.info(`${signal} received, shutting down`)
    server.close().then(() => process.exit(0), (err: Error) => {
      log.error(`shutdown failed: ${err.message}`)
      process.exit(1)
    })
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
  // A parent that disappears (the Electron shell crashed) must not leave an orphan server behind.
  process.on('disconnect', () => stop('parent disconnected'))
}

main().catch((err: Error) => {
  createLogger().error(`server failed to start: ${err.message}`)
  process.exit(1)
})
