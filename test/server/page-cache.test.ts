// The SQLite page cache setting (--cache-size) reaches both of the server's connections: the HTTP
// thread's and the ingest thread's. The server reads each back from its connection and logs it at start.
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_PAGE_CACHE_MIB } from '../../src/server/store/database'
import { removeDir, startBuiltServer, type BuiltServer } from '../support/built-server'
import { capturedLog } from '../support/captured-log'
import { sqliteOf, testEngine } from '../support/test-database'
import { startTestServer, type TestServer } from '../support/in-process-server'

const cacheLine = (lines: readonly string[]) => lines.find((l) => l.includes('SQLite page cache'))

let running: TestServer | undefined
let built: BuiltServer | undefined
afterEach(async () => {
  await running?.stopAndClean()
  running = undefined
  if (built) {
    await built.kill()
    removeDir(built.dataDir)
    built = undefined
  }
})

// A setting of SQLite's connections: PostgreSQL's cache is its server's (shared_buffers).
describe.skipIf(testEngine === 'postgres')('the SQLite page cache', () => {
  it('is the size asked for on both connections', async () => {
    const captured = capturedLog()
    running = await startTestServer({ cacheSizeMib: 3, log: captured.log })
    // Negative: KiB rather than pages.
    expect(sqliteOf(running.store).pragma('cache_size', { simple: true })).toBe(-3 * 1024)
    expect(cacheLine(captured.out())).toMatch(/SQLite page cache: 3 MiB for the HTTP thread, 3 MiB for the collector$/)
  })

  it('is the default on both connections when none is asked for', async () => {
    const captured = capturedLog()
    running = await startTestServer({ log: captured.log })
    expect(sqliteOf(running.store).pragma('cache_size', { simple: true })).toBe(-DEFAULT_PAGE_CACHE_MIB * 1024)
    expect(cacheLine(captured.out())).toMatch(
      `SQLite page cache: ${DEFAULT_PAGE_CACHE_MIB} MiB for the HTTP thread, ${DEFAULT_PAGE_CACHE_MIB} MiB for the collector`
    )
  })

  it('is taken from --cache-size by the built server', async () => {
    built = await startBuiltServer({ args: ['--cache-size', '5'] })
    expect(cacheLine(built.output().split('\n'))).toMatch(/SQLite page cache: 5 MiB for the HTTP thread, 5 MiB for the collector$/)
  })
})
