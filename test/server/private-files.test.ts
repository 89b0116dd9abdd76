// The data folder is its owner's only (issue: any local user could read session ids, password hashes and
// the key that seals agent credentials from a 755 folder of 644 files): folders and files made by an
// older version are narrowed at start, and what the server makes later is made private.
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/server/store/database'
import { migrations } from '../../src/server/store/migrations'
import { DATABASE_FILE } from '../../src/server/server'
import { removeDir } from '../support/built-server'
import { fixture } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/in-process-server'

const mode = (file: string) => statSync(file).mode & 0o777
let dir: string
let server: TestServer | undefined

afterEach(async () => {
  await server?.stopAndClean()
  server = undefined
  removeDir(dir)
})

describe('the data folder', () => {
  it('is narrowed to its owner at start, with the database, its journal files and the secret key', async () => {
    dir = mkdtempSync(join(tmpdir(), 'overseer-private-'))
    const dataDir = join(dir, 'data')
    mkdirSync(dataDir, { mode: 0o755 })
    chmodSync(dataDir, 0o755)
    // A database of an earlier version, left world-readable.
    const file = join(dataDir, DATABASE_FILE)
    openDatabase(file).sqlite.close()
    chmodSync(file, 0o644)
    server = await startTestServer({ dataDir, database: file })
    await server.collect(fixture('02-status-heartbeat'))
    expect(mode(dataDir)).toBe(0o700)
    for (const name of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, 'secret.key']) {
      expect([name, mode(join(dataDir, name))]).toEqual([name, 0o600])
    }
  })

  it('keeps the backup taken before a migration private', () => {
    dir = mkdtempSync(join(tmpdir(), 'overseer-private-'))
    const file = join(dir, DATABASE_FILE)
    openDatabase(file, undefined, migrations.at(-2)!.version).sqlite.close()
    chmodSync(file, 0o644)
    const { sqlite, backupFile } = openDatabase(file)
    sqlite.close()
    expect(backupFile).toBeDefined()
    expect([mode(file), mode(backupFile!)]).toEqual([0o600, 0o600])
  })

  it('is made private when new', () => {
    dir = mkdtempSync(join(tmpdir(), 'overseer-private-'))
    const file = join(dir, 'new/deeper', DATABASE_FILE)
    writeFileSync(join(dir, 'unrelated'), '', { mode: 0o644 })
    openDatabase(file).sqlite.close()
    expect([mode(join(dir, 'new')), mode(join(dir, 'new/deeper')), mode(file)]).toEqual([0o700, 0o700, 0o600])
    // Only what the server made: a folder it was merely given keeps its other files as they are.
    expect(mode(join(dir, 'unrelated'))).toBe(0o644)
  })
})
