// The real built server tells its supervisor before it backs up and migrates an older database, so
// that the start-up deadline does not kill a long migration (the deadline logic itself is in
// supervisor-deadlines.test.ts).
import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ServerSupervisor, type SupervisorEvent } from '../../src/main/supervisor'
import { DATABASE_FILE } from '../../src/server/server'
import { openDatabase } from '../../src/server/store/database'
import { migrations } from '../../src/server/store/migrations'
import { removeDir } from '../support/built-server'
import { forkedServerLauncher, isAlive } from './forked-server-process'

const launcher = forkedServerLauncher()
let dataDir: string | undefined
let supervisor: ServerSupervisor | undefined

afterEach(async () => {
  await supervisor?.stop()
  for (const pid of launcher.pids) expect(isAlive(pid)).toBe(false)
  if (dataDir) removeDir(dataDir)
})

async function startOn(dir: string): Promise<SupervisorEvent[]> {
  const events: SupervisorEvent[] = []
  supervisor = new ServerSupervisor({
    launch: launcher.launch,
    args: ['--host', '127.0.0.1', '--data-dir', dir],
    onEvent: (e) => events.push(e)
  })
  await supervisor.start(0)
  await supervisor.stop()
  return events
}

describe('the built server reports a migration to its supervisor', { timeout: 60_000 }, () => {
  it('sends "migrating" (from and to which schema) before migrating a database of an older version, then ready', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'overseer-migrating-'))
    const [previous, latest] = migrations.slice(-2).map((m) => m.version)
    openDatabase(join(dataDir, DATABASE_FILE), undefined, previous).sqlite.close()

    const events = await startOn(dataDir)
    expect(events.map((e) => e.type)).toEqual(['migrating', 'ready'])
    expect(events[0]).toEqual({ type: 'migrating', fromVersion: previous, toVersion: latest })
    expect(readdirSync(dataDir).filter((f) => f.startsWith(`${DATABASE_FILE}.before-v${latest}-`))).toHaveLength(1)

    // Migrated: the next start has nothing to report.
    expect((await startOn(dataDir)).map((e) => e.type)).toEqual(['ready'])
  })

  it('sends nothing of the kind for a new database', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'overseer-migrating-'))
    expect((await startOn(dataDir)).map((e) => e.type)).toEqual(['ready'])
  })
})
