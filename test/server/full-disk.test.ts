// Issue 12, item 4: a full disk never kills the server. The built server runs as its own process with
// its data folder on a real 16 MiB tmpfs, which a ballast file fills up and later frees.
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpRequest, loginAs, type ApiClient } from '../support/api-client'
import { startBuiltServer, type BuiltServer } from '../support/built-server'
import { postCollector } from '../support/collector-client'
import { fixture } from '../support/fixtures'
import { mountSmallDisk, type SmallDisk } from '../support/small-disk'
import { testEngine } from '../support/test-database'
import { waitFor } from '../support/wait'

const COLLECTOR = 'monit:collect0r'
const ADMIN = { user: 'admin', password: 'adminsecret1' }
/** The built server's history rollup runs every 5 s. */
const ROLLUP_MS = 5000

// Mounting a tmpfs needs root: CI has it (and so fails loudly without it); a developer's machine may not.
// PostgreSQL keeps its data in its own cluster, not in the data folder this fills up.
const runs = (process.getuid?.() === 0 || !!process.env.CI) && testEngine === 'sqlite'

let disk: SmallDisk | undefined
let server: BuiltServer | undefined
beforeAll(async () => {
  if (!runs) return
  disk = mountSmallDisk(16)
  server = await startBuiltServer({
    dataDir: join(disk.dir, 'data'),
    args: ['--init-admin', `${ADMIN.user}:${ADMIN.password}`, '--init-collector', COLLECTOR]
  })
})
afterAll(async () => {
  await server?.kill()
  disk?.unmount()
})

const post = (xml: Buffer | string) => postCollector(server!.baseUrl, xml, { auth: COLLECTOR })
const metrics = async () =>
  (
    await httpRequest(server!.baseUrl, 'GET', '/metrics', undefined, {
      Authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}`
    })
  ).text
const metric = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1])
const linesWith = (needle: string) =>
  server!
    .output()
    .split('\n')
    .filter((l) => l.includes(needle))
const isLoginPage = (text: string) => text.includes('action="z_security_check"')
const records = async (client: ApiClient, path: string) => {
  const res = await client.get(path)
  expect(res.status).toBe(200)
  return (res.json as { records: unknown[] }).records
}

describe.skipIf(!runs)('a full disk (a real tmpfs filled up)', () => {
  it('keeps the process up, answers 503 to agents and reads with 200, says so, and resumes by itself', async () => {
    expect((await post(fixture('03-event-process-not-running'))).status).toBe(200)
    const admin = await loginAs(server!.baseUrl, ADMIN.user, ADMIN.password)
    // The session's last access is old enough to be stamped again on its next request: a write.
    const db = new Database(join(server!.dataDir, 'overseer.sqlite'))
    db.prepare('UPDATE session SET last_access = last_access - 120').run()
    db.close()

    // A host reporting every second, whose deadline is 3 s after its last message; then the disk fills
    // up, and its next message is refused: agents are told to come back later, and keep their events
    // queued meanwhile.
    const heartbeat = fixture('02-status-heartbeat').toString().replace('<poll>5</poll>', '<poll>1</poll>')
    expect((await post(heartbeat)).status).toBe(200)
    disk!.fill()
    const refused = await post(heartbeat)
    expect(refused.status).toBe(503)
    expect(refused.headers['retry-after']).toBe('60')
    expect(JSON.parse(refused.body)).toEqual({ error: 'the server cannot store data: its disk is full; try again once space is freed' })
    expect(linesWith('storage: writing the database failed')).toEqual([expect.stringContaining('SQLITE_FULL: database or disk is full')])
    const events = await records(admin, '/api/2/reports/events/list')
    expect(events.length).toBeGreaterThan(0)

    // The rollup (its first pass writes where the history starts) fails on each of its two passes: the
    // process lives on, and says so once. The watchdog holds its judgement while the collector cannot
    // store (issue 29): the host's silence is the server's, so it is not declared dead, nor written.
    await new Promise((resolve) => setTimeout(resolve, 2 * ROLLUP_MS))
    expect(server!.child.exitCode).toBeNull()
    expect(linesWith('history rollup failed')).toEqual([
      expect.stringContaining(`ERROR history rollup failed: SQLITE_FULL: database or disk is full; tried again every ${ROLLUP_MS} ms`)
    ])
    expect(linesWith('heartbeat watchdog')).toEqual([])
    expect(server!.output()).not.toMatch(/internal server error|Uncaught|uncaught/)

    // Reads go on: the login page (no session can be stored for it), the console with a session whose
    // stamp cannot be written, the hosts and events lists.
    const loginPage = await httpRequest(server!.baseUrl, 'GET', '/index.csp')
    expect(loginPage.status).toBe(200)
    expect(isLoginPage(loginPage.text)).toBe(true)
    expect(loginPage.headers['set-cookie']).toBeUndefined()
    const consolePage = await admin.get('/index.csp')
    expect(consolePage.status).toBe(200)
    expect(isLoginPage(consolePage.text)).toBe(false)
    expect(await records(admin, '/api/2/status/hosts/list')).toHaveLength(1)
    expect(await records(admin, '/api/2/reports/events/list')).toEqual(events)
    // A new login needs a session written: a clear 503 on the login page, JSON for JSON clients.
    const form = new URLSearchParams({ z_username: ADMIN.user, z_password: ADMIN.password }).toString()
    const formHeaders = { 'Content-Type': 'application/x-www-form-urlencoded' }
    const login = await httpRequest(server!.baseUrl, 'POST', '/z_security_check', form, formHeaders)
    expect(login.status).toBe(503)
    expect(login.headers['retry-after']).toBe('60')
    expect(isLoginPage(login.text)).toBe(true)
    expect(login.text).toContain('its disk is full')
    const jsonLogin = await httpRequest(server!.baseUrl, 'POST', '/z_security_check', form, { ...formHeaders, Accept: 'application/json' })
    expect(jsonLogin).toMatchObject({ status: 503, json: { error: expect.stringContaining('its disk is full') } })
    // Writes through the API: 503 with a clear error, not 500.
    const csrf = await admin.csrfToken()
    expect(await admin.post('/api/2/session/put', { theme: 'dark', CSRFToken: csrf })).toMatchObject({
      status: 503,
      json: { error: 'the server cannot store data: its disk is full; try again once space is freed' }
    })
    const full = await metrics()
    expect(metric(full, 'overseer_storage_full')).toBe(1)
    expect(metric(full, 'overseer_storage_failed_writes_total')).toBeGreaterThan(2)

    disk!.free()
    expect((await post(fixture('02-status-heartbeat'))).status).toBe(200)
    expect(metric(await metrics(), 'overseer_storage_full')).toBe(0)
    await waitFor('the rollup to work again', () => linesWith('history rollup works again').length === 1, 2 * ROLLUP_MS)
    expect(linesWith('storage: writing the database works again')).toHaveLength(1)
    expect(await records(admin, '/api/2/status/hosts/list')).toHaveLength(1)
    await loginAs(server!.baseUrl, ADMIN.user, ADMIN.password)
    expect(await server!.stop()).toBe(0)
  }, 60_000)
})
