// A guarded PostgreSQL connection (store/postgres/stall-watch.ts), as the HTTP thread's: a statement stuck
// on another session's lock, or on a database that no longer answers (a TCP proxy turned black hole), is
// given up after the stall time — cancelled, so that it never runs later — and the statements after it
// fail at once while the cause lasts; a statement that merely runs long is waited for; a transaction
// whose connection was given up fails until its ROLLBACK, never going on outside it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SyncConnection, type PostgresError } from '../../../src/server/store/postgres/sync-connection'
import { storageFailureCode } from '../../../src/server/store/storage-errors'
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy'
import { databaseFor, dropDatabaseOf, testEngine } from '../../support/test-database'
import { waitFor } from '../../support/wait'

const STALL_MS = 200

let dir: string
let url: string
let holder: SyncConnection
const opened: SyncConnection[] = []

function guarded(at = url): SyncConnection {
  const c = new SyncConnection(at)
  c.guard(STALL_MS)
  opened.push(c)
  return c
}

function failure(run: () => unknown): PostgresError {
  try {
    run()
  } catch (err) {
    return err as PostgresError
  }
  throw new Error('the statement was answered')
}

const rows = (c: SyncConnection, text: string) => Number(c.query(text).rows[0].n)

/** Waits until the connection answers `text` with `n`, failing meanwhile. */
async function servedAgain(c: SyncConnection, text: string, n: number): Promise<void> {
  await waitFor(
    'statements served again',
    () => {
      try {
        return rows(c, text) === n
      } catch {
        return false
      }
    },
    15_000
  )
}

describe.skipIf(testEngine !== 'postgres')('a guarded connection', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'overseer-stall-'))
    url = databaseFor(dir)!
    holder = new SyncConnection(url)
    // Another session than the server's: its locks are given up on (the server's own are waited for).
    holder.query("SET application_name = 'an administrator'")
    holder.query('CREATE TABLE stall_probe (n integer)')
    holder.query('CREATE TABLE stall_other (n integer)')
  })
  afterEach(() => {
    for (const c of opened.splice(0)) c.close()
    holder.query('ROLLBACK') // a test's lock, whatever it left
    holder.query('DELETE FROM stall_probe')
    holder.query('DELETE FROM stall_other')
  })
  afterAll(() => {
    holder?.close()
    dropDatabaseOf(dir)
    rmSync(dir, { recursive: true, force: true })
  })

  it('gives up a statement waiting on a lock, serves what does not need it, and never runs it later', async () => {
    const c = guarded()
    holder.query('BEGIN')
    holder.query('LOCK TABLE stall_probe IN ACCESS EXCLUSIVE MODE')
    const stuck = failure(() => c.query('INSERT INTO stall_probe VALUES (1)'))
    expect(stuck.code).toBe('55P03')
    expect(storageFailureCode(stuck)).toBe('55P03')
    expect(stuck.message).toMatch(/waited more than 0\.20 s on a lock held by another session \(process \d+\); given up/)
    // The same connection serves what does not need the locked table; what does is given up again.
    expect(rows(c, 'SELECT count(*) AS n FROM stall_other')).toBe(0)
    expect(failure(() => c.query('SELECT count(*) FROM stall_probe')).code).toBe('55P03')
    holder.query('COMMIT')
    expect(rows(c, 'SELECT count(*) AS n FROM stall_probe')).toBe(0)
    // The INSERT given up was cancelled, not left waiting for the lock.
    expect(rows(holder, 'SELECT count(*) AS n FROM stall_probe')).toBe(0)
  })

  it('waits for a statement that runs long, without a lock to wait on, and tells of it', () => {
    const slow: number[] = []
    const c = new SyncConnection(url, { onSlow: { slowMs: 500, waited: (ms) => slow.push(ms) } })
    opened.push(c)
    c.guard(STALL_MS)
    expect(c.query('SELECT pg_sleep(0.6), 7 AS n').rows[0].n).toBe(7)
    c.query('SELECT 1')
    expect(slow).toHaveLength(1)
    expect(slow[0]).toBeGreaterThanOrEqual(600)
  })

  it('leaves a transaction whose statement was given up aborted until its ROLLBACK, never going on outside it', () => {
    const c = guarded()
    c.query('BEGIN')
    c.query('INSERT INTO stall_other VALUES (1)')
    holder.query('BEGIN')
    holder.query('LOCK TABLE stall_probe IN ACCESS EXCLUSIVE MODE')
    expect(failure(() => c.query('SELECT count(*) FROM stall_probe')).code).toBe('55P03')
    holder.query('COMMIT')
    expect(failure(() => c.query('INSERT INTO stall_other VALUES (2)')).code).toBe('25P02') // in failed transaction
    c.query('ROLLBACK')
    expect(rows(c, 'SELECT count(*) AS n FROM stall_other')).toBe(0)
  })

  describe('behind a network black hole', () => {
    let proxy: TcpProxy
    beforeAll(async () => {
      proxy = await startTcpProxy(Number(new URL(url).port))
    })
    afterAll(() => proxy?.stop())

    it('gives a statement up, fails at once while the database is silent, and serves again once it answers', async () => {
      const through = new URL(url)
      through.port = String(proxy.port)
      const c = guarded(through.toString())
      expect(rows(c, 'SELECT 1 AS n')).toBe(1)
      await proxy.blackHole()
      try {
        const silent = failure(() => c.query('SELECT 2'))
        expect(silent.code).toBe('ETIMEDOUT')
        expect(silent.message).toMatch(/did not answer within 0\.20 s/)
        // Given up by the stall watch, not waited out: PostgreSQL's own timeout (60 s) and the connection's
        // margin would say "did not answer within 70 s".
        expect(silent.message).toMatch(/, nor a second connection$/)
        for (let i = 0; i < 5; i++) expect(failure(() => c.query('SELECT 3')).code).toBe('ETIMEDOUT')
      } finally {
        await proxy.restore()
      }
      await servedAgain(c, 'SELECT 4 AS n', 4)
    })

    it('fails a transaction whose connection was given up until its ROLLBACK, never going on outside it', async () => {
      const through = new URL(url)
      through.port = String(proxy.port)
      const c = guarded(through.toString())
      c.query('BEGIN')
      c.query('INSERT INTO stall_other VALUES (1)')
      await proxy.blackHole()
      try {
        expect(failure(() => c.query('INSERT INTO stall_other VALUES (2)')).code).toBe('ETIMEDOUT')
      } finally {
        await proxy.restore()
      }
      // The database answers again, but this transaction went with its connection: a write now would be outside it.
      await new Promise((r) => setTimeout(r, 1_000))
      expect(failure(() => c.query('INSERT INTO stall_other VALUES (3)')).message).toMatch(/the transaction is lost with its connection/)
      expect(failure(() => c.query('COMMIT')).message).toMatch(/the transaction is lost/)
      c.query('ROLLBACK')
      await servedAgain(c, 'SELECT count(*) AS n FROM stall_other', 0)
    })
  })
})
