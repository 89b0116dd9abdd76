// `node out/main/server.js import-mmonit …` as an administrator runs it: its arguments, its exit statuses
// (0 imported, 1 refused or failed, 2 bad arguments), the progress on stderr and the report on stdout.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASE_FILE } from '../../../../src/server/server'
import { parseImportArgs, UsageError } from '../../../../src/server/tools/import-mmonit/command'
import { SERVER_JS } from '../../../support/built-server'
import { createMMonitSqlite, SMALL_SHAPE } from '../../../support/mmonit-database'

let dir: string
let source: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'overseer-import-cli-'))
  source = join(dir, 'mmonit.db')
  createMMonitSqlite(source, SMALL_SHAPE)
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('import-mmonit arguments', () => {
  it('defaults --to to the data folder the server uses, and takes M/Monit URL forms', () => {
    const args = parseImportArgs(['--from', 'sqlite:///var/lib/mmonit/db/mmonit.db?synchronous=normal', '--data-dir', '/srv/overseer'], {})
    expect(args).toMatchObject({
      from: 'sqlite:///var/lib/mmonit/db/mmonit.db?synchronous=normal',
      to: join('/srv/overseer', DATABASE_FILE),
      keyFile: join('/srv/overseer', 'secret.key'),
      history: true,
      dryRun: false,
      merge: false
    })
    const env = { OVERSEER_DATA_DIR: '/data', OVERSEER_DATABASE: 'postgres://o:p@127.0.0.1/overseer' }
    expect(
      parseImportArgs(['--from', 'mysql://m:m@127.0.0.1/mmonit', '--since', '2025-12-01', '--no-history', '--merge'], env)
    ).toMatchObject({
      to: 'postgres://o:p@127.0.0.1/overseer',
      keyFile: join('/data', 'secret.key'),
      since: Date.UTC(2025, 11, 1) / 1000,
      history: false,
      merge: true
    })
  })

  it.each([
    [[], '--from is missing'],
    [['--from', 'mmonit.db'], '--from mmonit.db: expected sqlite:PATH, mysql://… or postgresql://…'],
    [['--from', 'sqlite:a.db', '--to', 'b.db'], '--to b.db: expected sqlite:PATH or postgres://…'],
    [['--from', 'sqlite:a.db', '--since', 'yesterday'], '--since yesterday: expected YYYY-MM-DD or an ISO 8601 time'],
    [['--from', 'sqlite:a.db', '--since', '2025-13-45'], '--since 2025-13-45: expected YYYY-MM-DD or an ISO 8601 time'],
    [['--from', 'sqlite:a.db', '--batch-rows', '0'], '--batch-rows 0: expected a whole number from 1 to 100000'],
    [['--from', 'sqlite:a.db', '--force'], 'unknown argument --force'],
    [['--from'], '--from needs a value']
  ])('refuses %j: %s', (args, message) => {
    expect(() => parseImportArgs(args, {})).toThrow(new UsageError(message))
  })
})

describe.skipIf(!existsSync(SERVER_JS))('server.js import-mmonit', () => {
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [SERVER_JS, 'import-mmonit', ...args], { encoding: 'utf8', env: { PATH: process.env.PATH } })

  it('imports into the data folder: progress on stderr, the report on stdout, exit 0; refuses a second source without --merge', () => {
    const dataDir = join(dir, 'data')
    const run = cli('--from', `sqlite:${source}`, '--data-dir', dataDir, '--batch-rows', '5')
    expect(run.stderr).toMatch(/^hosts: 3 \/ 3 rows \(100 %\)/m)
    expect(run.stdout).toMatch(/^imported from M\/Monit schema 15 in [\d.]+ s; counts verified:$/m)
    expect(run.stdout).toMatch(/^ {2}events +60 imported of 60$/m)
    expect(run.stdout).toContain('history: 3 text samples (statistics_string): history keeps numbers only')
    expect(run.stdout).toContain("user admin still has M/Monit's default password (swordfish): flagged unsafe, change it")
    expect(run.status).toBe(0)
    expect(existsSync(join(dataDir, DATABASE_FILE))).toBe(true)

    const other = join(dir, 'other.db')
    createMMonitSqlite(other, { ...SMALL_SHAPE, hosts: 1 })
    const refused = cli('--from', `sqlite:${other}`, '--data-dir', dataDir)
    expect(refused.stderr).toMatch(
      /^overseer import-mmonit: the target already holds data \(3 hosts, 3 users, 2 host groups, 60 events\): pass --merge/m
    )
    expect(refused.status).toBe(1)
  })

  it('exits 1 on a file that is no M/Monit database and 2 on bad arguments, writing nothing', () => {
    const target = join(dir, 'never.sqlite')
    const missing = cli('--from', `sqlite:${join(dir, 'missing.db')}`, '--to', `sqlite:${target}`)
    expect(missing.stderr).toMatch(/cannot open as an SQLite database/)
    expect(missing.status).toBe(1)
    const notMMonit = cli('--from', `sqlite:${SERVER_JS}`, '--to', `sqlite:${target}`)
    expect(notMMonit.status).toBe(1)
    const usage = cli('--from', `sqlite:${source}`, '--since', 'soon')
    expect(usage.stderr).toMatch(/--since soon: expected YYYY-MM-DD[^\n]*\nusage: overseer import-mmonit --from URL/)
    expect(usage.status).toBe(2)
    expect(existsSync(target)).toBe(false)
  })

  it('--dry-run reports what it would read and creates no database', () => {
    const target = join(dir, 'dry.sqlite')
    const run = cli('--from', `sqlite:${source}`, '--to', `sqlite:${target}`, '--dry-run', '--data-dir', join(dir, 'dry-data'))
    expect(run.stdout).toMatch(/^dry run: M\/Monit schema 15; nothing was written/m)
    expect(run.stdout).toMatch(/^ {2}hosts +3$/m)
    expect(run.status).toBe(0)
    expect(existsSync(target)).toBe(false)
    expect(existsSync(join(dir, 'dry-data'))).toBe(false)
  })
})
