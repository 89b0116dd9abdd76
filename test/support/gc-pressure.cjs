// Preloaded (--require) into a built server run with --expose-gc, on its main thread and, as Node passes
// its flags on, in each of its worker threads, so that prepared statements and connections are
// finalised while the process runs: a full GC every 500 ms, and in the collector's ingest thread after
// every 20 messages. With OVERSEER_TEST_INGEST_MESSAGES=N the ingest thread also ends at its Nth message
// and the server replaces it: its Node environment is torn down with native objects alive (where
// better-sqlite3 12 aborted on Node 24).
'use strict'
const { isMainThread, parentPort, workerData } = require('node:worker_threads')

const gc = globalThis.gc
if (typeof gc !== 'function') throw new Error('gc-pressure.cjs needs --expose-gc')
setInterval(gc, 500).unref()

const lifetime = Number(process.env.OVERSEER_TEST_INGEST_MESSAGES)
const ingestThread = !isMainThread && workerData && typeof workerData === 'object' && 'keyFile' in workerData
if (ingestThread) {
  let received = 0
  parentPort.on('message', (message) => {
    if (message?.type !== 'collect') return
    received++
    if (received % 20 === 0) setImmediate(gc)
    if (received === lifetime) setImmediate(() => process.exit(3))
  })
}
