// A PostgreSQL connection whose server cannot be reached: a connection attempt is given up after 5 s (a
// host that drops packets would hold it for minutes); after a failed attempt, statements fail at once
// with its error while the next attempt, one a second at most, runs in the background. No cluster
// needed: a "server" that accepts and never answers, in a process of its own (the test's thread waits).
// On PostgreSQL, a connection whose backend stops answering is replaced once its statement is given up,
// and a closed connection's thread serves the next connection, to that one's database only.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { idleConnectionThreads, SyncConnection, type PostgresError } from '../../../src/server/store/postgres/sync-connection'
import { storageFailureCode, storageFailureMessage } from '../../../src/server/store/storage-errors'
import { Store } from '../../../src/server/store/store'
import { startSilentServer, type SilentServer } from '../../support/silent-server'
import { databaseFor, dropDatabaseOf, testEngine, withDatabase } from '../../support/test-database'
import { waitFor } from '../../support/wait'

let silent: SilentServer
/** The connection thread's (store/postgres/connection-worker.ts). */
const CONNECT_TIMEOUT_MS = 5_000
const RETRY_CONNECT_AFTER_MS = 1_000

function failure(c: SyncConnection): PostgresError {
  try {
    c.query('SELECT 1')
  } catch (err) {
    return err as PostgresError
  }
  throw new Error('the statement was answered')
}

// Needs no cluster: run once, in the SQLite half of the suite.
describe.skipIf(testEngine === 'postgres')('a PostgreSQL server out of reach', () => {
  beforeAll(async () => {
    silent = await startSilentServer()
  })
  afterAll(() => silent?.stop())

  it('gives a connection attempt up after 5 s; then fails at once, trying again in the background once a second', async () => {
    const c = new SyncConnection(`postgres://nobody@127.0.0.1:${silent.port}/none`)
    try {
      const first = failure(c)
      expect(first.code).toBe('ETIMEDOUT')
      expect(storageFailureCode(first)).toBe('ETIMEDOUT')
      await waitFor('the attempt seen by the silent server', () => silent.connections() === 1, 10_000, 10)

      expect(failure(c).code).toBe('ETIMEDOUT') // within the second: no attempt
      // Real time, the retry interval: the statement above started no attempt; the next one may.
      await new Promise((r) => setTimeout(r, RETRY_CONNECT_AFTER_MS + 100))
      expect(silent.connections()).toBe(1)

      // A second later: the statement still fails at once, and a new attempt starts behind it.
      const startedMs = Date.now()
      expect(failure(c).code).toBe('ETIMEDOUT')
      expect(failure(c).code).toBe('ETIMEDOUT') // one attempt at a time
      expect(Date.now() - startedMs).toBeLessThan(CONNECT_TIMEOUT_MS)
      await waitFor('the second attempt', () => silent.connections() === 2, 10_000, 10)
      // Proves absence: another attempt, started beside it, would have connected as soon.
      await new Promise((r) => setTimeout(r, 200))
      expect(silent.connections()).toBe(2)
    } finally {
      c.close()
    }
  }, 30_000)

  it('names a refused connection as the socket does', () => {
    const c = new SyncConnection(`postgres://nobody@127.0.0.1:1/none`)
    try {
      const refused = failure(c)
      expect(refused.code).toBe('ECONNREFUSED')
      expect(storageFailureCode(refused)).toBe('ECONNREFUSED')
    } finally {
      c.close()
    }
  })
})

describe.skipIf(testEngine !== 'postgres')(
  'a PostgreSQL connection that stops answering (its backend stopped, as a network cut would)',
  () => {
    it('is given up after statement_timeout and a margin, and the next statement gets a new connection', () => {
      const c = new SyncConnection(withDatabase(process.env.OVERSEER_TEST_POSTGRES!, 'postgres'), {
        statementTimeoutMs: 1_000,
        answerMarginMs: 1_000
      })
      const backend = Number(c.query('SELECT pg_backend_pid() AS pid').rows[0].pid)
      process.kill(backend, 'SIGSTOP')
      try {
        const stuck = failure(c)
        expect(stuck.message).toBe('PostgreSQL did not answer within 2 s')
        expect(storageFailureCode(stuck)).toBe('ETIMEDOUT')
        const next = Number(c.query('SELECT pg_backend_pid() AS pid').rows[0].pid)
        expect(next).not.toBe(backend)
      } finally {
        process.kill(backend, 'SIGCONT')
        c.query('SELECT pg_terminate_backend($1)', [backend])
        c.close()
      }
    }, 30_000)
  }
)

describe.skipIf(testEngine !== 'postgres')('a lock held by another session', () => {
  it("is waited for up to the connection's lock timeout, then given up with 55P03; a connection without one waits", () => {
    const url = withDatabase(process.env.OVERSEER_TEST_POSTGRES!, 'postgres')
    const holder = new SyncConnection(url)
    const bounded = new SyncConnection(url, { lockTimeoutMs: 300 })
    const unbounded = new SyncConnection(url, { statementTimeoutMs: 2_000 })
    try {
      holder.query('BEGIN')
      holder.query('SELECT pg_advisory_xact_lock(7240029)')
      expect(bounded.query('SHOW lock_timeout').rows[0].lock_timeout).toBe('300ms')
      const waited = (() => {
        try {
          bounded.query('SELECT pg_advisory_xact_lock(7240029)')
        } catch (err) {
          return err as PostgresError
        }
        throw new Error('the lock was taken')
      })()
      expect(waited.code).toBe('55P03')
      expect(storageFailureCode(waited)).toBe('55P03')
      // Without a lock timeout only the statement's own ends the wait.
      expect(unbounded.query('SHOW lock_timeout').rows[0].lock_timeout).toBe('0')
      expect(() => unbounded.query('SELECT pg_advisory_xact_lock(7240029)')).toThrow(/statement timeout/)
    } finally {
      holder.query('COMMIT')
      for (const c of [holder, bounded, unbounded]) c.close()
    }
  })

  it("is waited for without limit by the migrations, and the store's connection keeps its lock and statement timeouts after them", () => {
    const dir = mkdtempSync(join(tmpdir(), 'overseer-lock-timeout-'))
    const store = new Store(databaseFor(dir)!, undefined, { lockTimeoutMs: 300, statementTimeoutMs: 400 })
    try {
      expect(store.sql.rows<{ lock_timeout: string }>('SHOW lock_timeout')[0].lock_timeout).toBe('300ms')
      expect(store.sql.rows<{ statement_timeout: string }>('SHOW statement_timeout')[0].statement_timeout).toBe('400ms')
      // A statement that runs past it (a report too heavy for the HTTP thread) is cancelled: "busy", a 503.
      const cancelled = (() => {
        try {
          store.sql.rows('SELECT pg_sleep(2)')
        } catch (err) {
          return err as PostgresError
        }
        throw new Error('the statement ran to its end')
      })()
      expect(cancelled.code).toBe('57014')
      expect(storageFailureMessage(storageFailureCode(cancelled)!)).toMatch(/did not answer in time \(57014\); try again shortly/)
    } finally {
      store.close()
      dropDatabaseOf(dir)
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe.skipIf(testEngine !== 'postgres')("a closed connection's thread", () => {
  beforeAll(async () => {
    silent = await startSilentServer()
  })
  afterAll(() => silent?.stop())

  it('serves the next connection, to its own database, whatever the last one left', async () => {
    const cluster = process.env.OVERSEER_TEST_POSTGRES!
    // A connection whose attempt hangs on the silent server, closed with the attempt still under way.
    const hanging = new SyncConnection(`postgres://nobody@127.0.0.1:${silent.port}/none`)
    expect(failure(hanging).code).toBe('ETIMEDOUT')
    await new Promise((r) => setTimeout(r, 1_100)) // past the retry interval: the next statement starts an attempt
    expect(failure(hanging).code).toBe('ETIMEDOUT')
    await waitFor('the attempt under way', () => silent.connections() === 2, 10_000, 10)
    const idle = idleConnectionThreads()
    hanging.close()
    expect(idleConnectionThreads()).toBe(idle + 1)

    // The next connection takes that thread and reaches its own database, not the last one's failure.
    const next = new SyncConnection(withDatabase(cluster, 'postgres'))
    try {
      expect(idleConnectionThreads()).toBe(idle)
      expect(next.query('SELECT current_database() AS db').rows[0].db).toBe('postgres')
    } finally {
      next.close()
    }
    // A connection to another database on the same thread: its own settings, a client of its own.
    const other = new SyncConnection(withDatabase(cluster, 'template1'))
    try {
      expect(other.query('SELECT current_database() AS db').rows[0].db).toBe('template1')
    } finally {
      other.close()
    }
  }, 30_000)
})
