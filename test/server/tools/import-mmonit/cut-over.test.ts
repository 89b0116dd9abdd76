// After an import, the real server on the imported database: an M/Monit user logs in over HTTP with the
// password M/Monit knew (its MD5 digest is verified once, then replaced by our hash), and a real Monit
// agent whose id M/Monit knew, still posting with M/Monit's collector account, reports into the imported
// host instead of registering a new one.
import '../../../support/fast-passwords'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../../../src/server/log'
import { DATABASE_FILE, startServer, type RunningServer } from '../../../../src/server/server'
import { importMMonit } from '../../../../src/server/tools/import-mmonit/import-database'
import { httpRequest, loginAs } from '../../../support/api-client'
import { createMMonitSqlite, hostNameOf, SMALL_SHAPE } from '../../../support/mmonit-database'
import { startAgents, type AgentFleet } from '../../../support/monit-agents'
import { freePort } from '../../../support/ports'
import { databaseFor, dropDatabaseOf } from '../../../support/test-database'
import { waitFor } from '../../../support/wait'

let dir: string
let server: RunningServer
let fleet: AgentFleet
let baseUrl: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'overseer-cut-over-'))
  const port = await freePort()
  // M/Monit's shipped collector account, as the agents' `set mmonit` lines carry it.
  fleet = await startAgents({ collectorUrl: `http://monit:monit@127.0.0.1:${port}/collector`, count: 1, poll: 1 })
  const source = join(dir, 'mmonit.db')
  createMMonitSqlite(source, { ...SMALL_SHAPE, agentIds: [fleet.agents[0].id] })
  const dataDir = join(dir, 'data')
  const database = databaseFor(dataDir)
  await importMMonit({
    from: `sqlite:${source}`,
    to: database ?? join(dataDir, DATABASE_FILE),
    keyFile: join(dataDir, 'secret.key'),
    history: false,
    dryRun: false,
    merge: false
  })
  server = await startServer({ host: '127.0.0.1', port, dataDir, database, log: silentLogger })
  baseUrl = `http://127.0.0.1:${server.port}`
}, 60_000)

afterAll(async () => {
  await fleet?.shutdown()
  await server?.close()
  dropDatabaseOf(join(dir, 'data'))
  rmSync(dir, { recursive: true, force: true })
})

describe('the server on an imported M/Monit database', () => {
  it('logs an M/Monit user in with the old password once, then keeps our hash instead of the MD5', async () => {
    const wrong = await httpRequest(baseUrl, 'POST', '/z_security_check', 'z_username=carol&z_password=nope&z_csrf_protection=off', {
      'Content-Type': 'application/x-www-form-urlencoded'
    })
    expect(wrong.status).not.toBe(302)
    expect(server.store.users.credentialsOf('carol')!.password_hash).toMatch(/^md5\$/)

    const client = await loginAs(baseUrl, 'carol', 'carol-has-a-long-one')
    expect((await client.get('/api/2/status/hosts/list')).status).toBe(200)
    const after = server.store.users.credentialsOf('carol')!
    expect(after.password_hash).toMatch(/^scrypt\$/)
    expect(after.password_unsafe).toBe(0)
    await loginAs(baseUrl, 'carol', 'carol-has-a-long-one')

    // M/Monit's default administrator password logs in too, and stays flagged unsafe: it is a guessed one.
    const admin = await loginAs(baseUrl, 'admin', 'swordfish')
    expect(server.store.users.credentialsOf('admin')).toMatchObject({
      password_hash: expect.stringMatching(/^scrypt\$/),
      password_unsafe: 1
    })
    // What the console's user list shows: monit (not logged in yet) and admin unsafe, carol no longer.
    const list = (await admin.get('/api/2/admin/users/list')).json as { uname: string; unsafepassword: number }[]
    expect(Object.fromEntries(list.map((u) => [u.uname, u.unsafepassword]))).toEqual({ admin: 1, monit: 1, carol: 0 })
  })

  it("takes a real agent's reports into the host M/Monit knew it as", async () => {
    const agent = fleet.agents[0]
    const hosts = () =>
      server.store.sql.rows<{ id: number; hostname: string; agent_version: string }>(
        'SELECT id, hostname, agent_version FROM host WHERE agent_id = ?',
        [agent.id]
      )
    const imported = hosts()
    // M/Monit's last word (5.34.0), or already the agent's: it polls every second from the server's start.
    expect(imported).toEqual([expect.objectContaining({ hostname: hostNameOf(1), agent_version: expect.stringMatching(/^5\.3[34]\./) })])
    const total = server.store.sql.rows<{ n: number }>('SELECT count(*) AS n FROM host')[0].n
    // The agent's own report replaces what M/Monit last knew (Monit 5.33 here).
    await waitFor('the agent to report into its imported host', () => hosts()[0]?.agent_version.startsWith('5.33'), 20_000)
    expect(hosts()).toEqual([expect.objectContaining({ id: imported[0].id })])
    expect(server.store.sql.rows<{ n: number }>('SELECT count(*) AS n FROM host')[0].n).toBe(total)
    const services = server.store.services.ofHost(imported[0].id).map((s) => s.name)
    expect(services).toContain(agent.name)
  }, 30_000)
})
