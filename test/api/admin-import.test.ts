// admin/import/mmonit/* over real HTTP: an M/Monit-shaped SQLite database (test/support/mmonit-database.ts)
// counted, refused without merge, imported by the running server on its import thread, then read back
// through the API; every refusal with its status; the source's password never in an answer, the status,
// the audit log or the server's log.
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ImportStatus } from '../../src/shared/api/mmonit-import'
import { anonymous, httpRequest, loginAs, type ApiClient, type Params } from '../support/api-client'
import { capturedLog } from '../support/captured-log'
import type { TestServer } from '../support/in-process-server'
import { createMMonitSqlite, GENERATED_USERS, hostNameOf, SMALL_SHAPE } from '../support/mmonit-database'
import { freePort } from '../support/ports'
import { serverForEachTest } from '../support/server-per-test'
import { addUser } from '../support/users'
import { waitFor } from '../support/wait'

const SECRET = 'Sw0rdf1sh-n0t-to-echo'
const captured = capturedLog()
let server: TestServer
let admin: ApiClient
let dir: string
let mmonitDb: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'overseer-admin-import-'))
  mmonitDb = join(dir, 'mmonit.db')
  createMMonitSqlite(mmonitDb)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))
serverForEachTest(
  (started) => {
    ;({ server, admin } = started)
  },
  { log: captured.log }
)

const start = (params: Params, client = admin) => client.post('/api/2/admin/import/mmonit/start', params)
const status = async () => (await admin.get('/api/2/admin/import/mmonit/status')).json as ImportStatus
/** Polls the status until the import ends (bounded: a minute, far beyond what the small database takes). */
async function ended(): Promise<ImportStatus> {
  return waitFor(
    'the import to end',
    async () => {
      const current = await status()
      return current.state !== 'running' && current
    },
    60_000
  )
}

describe('admin/import/mmonit', () => {
  it('counts first (dry run), refuses the non-empty target without merge, then imports with it', async () => {
    const dry = await start({ source: `sqlite:${mmonitDb}`, dryrun: true })
    expect(dry.status, dry.text).toBe(200)
    const counted = (dry.json as ImportStatus).state === 'done' ? (dry.json as ImportStatus) : await ended()
    expect(counted).toMatchObject({ state: 'done', dryRun: true, startedBy: 'admin', source: `sqlite:${mmonitDb}` })
    const steps = Object.fromEntries(counted.report!.steps.map((s) => [s.name, s]))
    expect(steps.hosts).toMatchObject({ expected: SMALL_SHAPE.hosts, imported: 0 })
    expect(steps.users).toMatchObject({ expected: GENERATED_USERS.length, imported: 0 })
    expect(server.store.hostAdmin.list().length).toBe(0)

    // The server holds its administrator and collector user: importing needs merge.
    const refused = await start({ source: `sqlite:${mmonitDb}` })
    expect(refused.status).toBe(409)
    expect((refused.json as { error: string }).error).toMatch(/already holds data.*--merge/)

    const begun = await start({ source: `sqlite:${mmonitDb}`, merge: true })
    expect(begun.status, begun.text).toBe(200)
    expect(['running', 'done']).toContain((begun.json as ImportStatus).state)
    const done = await ended()
    expect(done.state, done.error ?? '').toBe('done')
    // Progress reached the server thread step by step, to the last one (the history).
    expect(done).toMatchObject({ stepCount: 10, stepIndex: 9, step: null, merge: true, dryRun: false })
    const report = Object.fromEntries(done.report!.steps.map((s) => [s.name, s]))
    expect(report.hosts).toMatchObject({ expected: SMALL_SHAPE.hosts, imported: SMALL_SHAPE.hosts })
    // M/Monit's admin and monit are this server's own users already: kept as they are, and said so.
    expect(report.users.imported).toBe(1)
    expect(report.users.skipped.map((s) => s.what).sort()).toEqual(['user admin', 'user monit'])

    const hosts = (await admin.get('/api/2/admin/hosts/list')).json as { records: { hostname: string }[] }
    expect(hosts.records.map((h) => h.hostname).sort()).toEqual([1, 2, 3].map(hostNameOf).sort())
    // The imported user logs in with the password M/Monit had; the administrator keeps its own.
    const carol = GENERATED_USERS[2]
    expect((await loginAs(server.baseUrl, carol.uname, carol.password)).cookie).toBeDefined()
    expect((await server.loginAsAdmin()).cookie).toBeDefined()
    expect((await start({ source: `sqlite:${mmonitDb}`, dryrun: true })).status).toBe(200)
  })

  it('answers each bad request with its status and a clear error, and writes nothing', async () => {
    const cases: [Params, number, RegExp][] = [
      [{ source: 'ftp://mmonit.example/db' }, 400, /expected sqlite:PATH/],
      [{ source: 'mysql://user:pw@[bad/mmonit' }, 400, /not a valid URL/],
      [{ source: `sqlite:${'x'.repeat(3000)}` }, 400, /longer than 2048/],
      [{ source: `sqlite:${mmonitDb}`, since: 'yesterday' }, 400, /YYYY-MM-DD/],
      [{ source: `sqlite:${mmonitDb}`, dryrun: 'perhaps' }, 400, /true or false/],
      [{ source: `sqlite:${join(dir, 'missing', 'mmonit.db')}` }, 422, /cannot open/]
    ]
    for (const [params, code, message] of cases) {
      const res = await start(params)
      expect([res.status, (res.json as { error: string }).error], JSON.stringify(params).slice(0, 80)).toEqual([
        code,
        expect.stringMatching(message)
      ])
    }
    expect(server.store.hostAdmin.list().length).toBe(0)
  })

  it('refuses a schema version it does not read (422), and what is no M/Monit database', async () => {
    const old = join(dir, 'schema-14.db')
    createMMonitSqlite(old)
    const db = new Database(old)
    db.exec('UPDATE mmonit SET schemaversion = 14')
    db.close()
    const res = await start({ source: `sqlite:${old}`, merge: true })
    expect(res.status).toBe(422)
    expect((res.json as { error: string }).error).toMatch(/schema version 14 is not supported/)
    const empty = join(dir, 'empty.db')
    new Database(empty).close()
    const notMMonit = await start({ source: `sqlite:${empty}` })
    expect(notMMonit.json, JSON.stringify(await status())).toEqual({ error: expect.stringMatching(/no M\/Monit database/) })
    expect((await status()).state).toBe('failed')
  })

  it('an unreachable database server is a 502, and its password is echoed nowhere', async () => {
    const port = await freePort()
    const source = `postgresql://reader:${SECRET}@127.0.0.1:${port}/mmonit`
    const res = await start({ source, merge: true })
    expect(res.status, res.text).toBe(502)
    expect((res.json as { error: string }).error).toContain(
      `@127.0.0.1:${port}/mmonit: cannot read the M/Monit database (connect ECONNREFUSED`
    )
    expect(res.text).not.toContain(SECRET)
    const failed = await status()
    expect(failed).toMatchObject({ state: 'failed', errorStatus: 502, source: `postgresql://reader@127.0.0.1:${port}/mmonit` })
    expect(JSON.stringify(failed)).not.toContain(SECRET)
    const audit = await admin.get('/api/2/admin/audit/list', { action: 'mmonit-import.start' })
    expect(audit.text).toContain(`mmonit postgresql://reader@127.0.0.1:${port}/mmonit`)
    expect(audit.text).not.toContain(SECRET)
    const logged = [...captured.out(), ...captured.err()]
    expect(logged.some((line) => line.includes(`reader@127.0.0.1:${port}`))).toBe(true)
    expect(logged.join('\n')).not.toContain(SECRET)
  })

  it('cancels an import still reading its source (an M/Monit that never answers): nothing written, the next one may start', async () => {
    const held: Socket[] = []
    const silent = createServer((socket) => void held.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as { port: number }
    try {
      const starting = start({ source: `http://admin:${SECRET}@127.0.0.1:${port}`, merge: true })
      await waitFor('the import to wait on M/Monit', () => held.length > 0)
      expect(await status()).toMatchObject({ state: 'running', step: null })
      expect((await admin.post('/api/2/admin/import/mmonit/cancel')).status).toBe(200)
      const answer = await starting
      expect(answer.status).toBe(200)
      expect(answer.json).toMatchObject({ state: 'cancelled', error: expect.stringMatching(/before it wrote anything/) })
      expect(answer.text).not.toContain(SECRET)
      expect(server.store.hostAdmin.list().length).toBe(0)
      expect((await start({ source: `sqlite:${mmonitDb}`, dryrun: true })).status).toBe(200)
    } finally {
      for (const socket of held) socket.destroy()
      silent.close()
    }
  })

  it('is for administrators, with the CSRF token; cancel without an import is a 409', async () => {
    addUser(server.store, { uname: 'viewer', password: 'viewer-pw', roleIds: [3] })
    const before = await status()
    const viewer = await loginAs(server.baseUrl, 'viewer', 'viewer-pw')
    expect((await start({ source: `sqlite:${mmonitDb}`, dryrun: true }, viewer)).status).toBe(403)
    expect((await viewer.get('/api/2/admin/import/mmonit/status')).status).toBe(403)
    // An administrator's CSRF-protected session (the console's), without the token its form would send.
    const guarded = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
    const bare = await httpRequest(
      server.baseUrl,
      'POST',
      '/api/2/admin/import/mmonit/start',
      `source=sqlite:${encodeURIComponent(mmonitDb)}`,
      {
        Cookie: guarded.cookie!,
        'Content-Type': 'application/x-www-form-urlencoded'
      }
    )
    expect(bare.status).toBe(403)
    expect(await status()).toEqual(before)
    expect((await (await anonymous(server.baseUrl)).get('/api/2/admin/import/mmonit/status')).headers['content-type']).toBe('text/html')
    expect((await admin.post('/api/2/admin/import/mmonit/cancel')).status).toBe(409)
  })
})
