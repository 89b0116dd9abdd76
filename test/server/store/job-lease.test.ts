// The jobs' lease (store/job-lease.ts): always held on SQLite (one process per file); on PostgreSQL held
// by one connection at a time, and taken by another as soon as the holder's session ends. On PostgreSQL it
// is looked after on a timer of its own, asynchronously: asking whether it is held never waits.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SyncConnection } from '../../../src/server/store/postgres/sync-connection'
import type { JobLease } from '../../../src/server/store/job-lease'
import { PostgresJobLease } from '../../../src/server/store/postgres/job-lease'
import { startSilentServer, type SilentServer } from '../../support/silent-server'
import { tempStore, type TempStore } from '../../support/temp-store'
import { testEngine } from '../../support/test-database'
import { waitFor } from '../../support/wait'

let t: TempStore
const leases: JobLease[] = []
afterEach(() => {
  for (const lease of leases.splice(0)) lease.close()
  t?.close()
})

function open(lines: string[] = []): JobLease {
  const lease = t.store.openJobLease((line) => lines.push(line))
  leases.push(lease)
  return lease
}

// Needs no cluster: run once, in the SQLite half of the suite.
describe.skipIf(testEngine === 'postgres')('on PostgreSQL out of reach (a host that accepts and never answers)', () => {
  let silent: SilentServer
  beforeAll(async () => {
    silent = await startSilentServer()
  })
  afterAll(() => silent?.stop())

  it('answers at once while its connection attempt waits, gives the attempt up, says so once and tries again', async () => {
    const lines: string[] = []
    const lease = new PostgresJobLease(`postgres://nobody@127.0.0.1:${silent.port}/none`, (line) => lines.push(line))
    leases.push(lease)
    await waitFor('the attempt seen by the silent server', () => silent.connections() > 0, 5_000, 10)
    // The jobs ask every pass while the attempt is still under way: answered, not waited for.
    let attemptOver = false
    void lease.refresh().then(() => (attemptOver = true))
    for (let pass = 0; pass < 5; pass++) expect(lease.held()).toBe(false)
    // A lease that asked the database itself would have waited the attempt out and said so by now.
    expect(lines, 'nothing given up yet').toEqual([])
    expect(attemptOver, 'the attempt still under way').toBe(false)
    expect(silent.connections()).toBe(1)
    await waitFor('a second attempt, the first given up', () => silent.connections() > 1, 10_000, 10)
    expect(lines).toEqual([expect.stringMatching(/^job lease: PostgreSQL unreachable \(.*\); tried again every 0\.25 s$/)])
  }, 20_000)
})

it.skipIf(testEngine === 'postgres')('is held by every opener on SQLite, which one process owns', () => {
  t = tempStore()
  expect([open().held(), open().held()]).toEqual([true, true])
})

describe.skipIf(testEngine !== 'postgres')('on PostgreSQL', () => {
  it('is held by one instance; the other takes it once the holder closes', async () => {
    t = tempStore()
    const lines: string[] = []
    const first = open(lines)
    expect(await first.refresh()).toBe(true)
    const second = open()
    expect(first.held()).toBe(true)
    expect(lines.join('\n')).toMatch(/job lease taken/)
    expect(await second.refresh()).toBe(false)
    expect(await first.refresh()).toBe(true)
    first.close()
    expect(first.held()).toBe(false)
    // Its session ends with its connection: the other's next try takes the lock.
    await expect.poll(() => second.held(), { timeout: 10_000, interval: 50 }).toBe(true)
  })

  it('is lost when the holder’s session ends, and taken by the other at its next try', async () => {
    t = tempStore()
    const lines: string[] = []
    const first = open(lines)
    expect(await first.refresh()).toBe(true)
    const second = open()
    expect(await second.refresh()).toBe(false)
    // What a dead process leaves: PostgreSQL ends its session and frees the lock.
    const admin = new SyncConnection(t.store.location)
    try {
      admin.query(`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()`)
    } finally {
      admin.close()
    }
    // pg_terminate_backend only signals the backend: the lock is free once it has ended.
    await expect.poll(() => second.held(), { timeout: 10_000, interval: 100 }).toBe(true)
    // The holder confirms its lease on its connection once a second at most (as a job's passes ask).
    await expect.poll(() => first.held(), { timeout: 10_000, interval: 100 }).toBe(false)
    expect(lines.join('\n')).toMatch(/job lease lost/)
  })
})
