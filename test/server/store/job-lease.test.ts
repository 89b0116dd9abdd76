// The jobs' lease (store/job-lease.ts): always held on SQLite (one process per file); on PostgreSQL held
// by one connection at a time, and taken by another as soon as the holder's session ends.
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

  it('waits out one connection attempt, then fails at once at every pass while its connection tries again', async () => {
    const lines: string[] = []
    const lease = new PostgresJobLease(`postgres://nobody@127.0.0.1:${silent.port}/none`, (line) => lines.push(line))
    leases.push(lease)
    expect(lease.held()).toBe(false)
    // Passes come every 500 ms; before, each opened a connection of its own and waited its 5 s attempt out.
    for (let pass = 0; pass < 5; pass++) expect(lease.held()).toBe(false)
    await waitFor('the attempt seen by the silent server', () => silent.connections() > 0, 5_000, 10)
    expect(silent.connections()).toBe(1)
    expect(lines).toEqual([expect.stringMatching(/^job lease: PostgreSQL unreachable \(timeout expired\); tried again every pass$/)])
  }, 15_000)
})

it.skipIf(testEngine === 'postgres')('is held by every opener on SQLite, which one process owns', () => {
  t = tempStore()
  expect([open().held(), open().held()]).toEqual([true, true])
})

describe.skipIf(testEngine !== 'postgres')('on PostgreSQL', () => {
  it('is held by one instance; the other takes it once the holder closes', () => {
    t = tempStore()
    const lines: string[] = []
    const first = open(lines)
    const second = open()
    expect(first.held()).toBe(true)
    expect(lines.join('\n')).toMatch(/job lease taken/)
    expect(second.held()).toBe(false)
    expect(first.held()).toBe(true)
    first.close()
    expect(second.held()).toBe(true)
    expect(first.held()).toBe(false)
  })

  it('is lost when the holder’s session ends, and taken by the other at its next try', async () => {
    t = tempStore()
    const lines: string[] = []
    const first = open(lines)
    const second = open()
    expect(first.held()).toBe(true)
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
