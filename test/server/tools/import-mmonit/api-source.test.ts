// `import-mmonit --from-api`: a real Overseer server stands in for M/Monit (its API is M/Monit's), filled
// over its own collector and API, and imported over HTTP into a second store: hosts, services, groups,
// users and events compared with the first store's, the login and what the API cannot give.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Store } from '../../../../src/server/store/store'
import { API_CANNOT_GIVE } from '../../../../src/server/tools/import-mmonit/api-source-tables'
import { parseImportArgs, UsageError } from '../../../../src/server/tools/import-mmonit/command'
import { importMMonit, type ImportReport } from '../../../../src/server/tools/import-mmonit/import-database'
import { formatReport } from '../../../../src/server/tools/import-mmonit/report'
import { SourceError } from '../../../../src/server/store/mmonit-source/source'
import { openSource } from '../../../../src/server/tools/import-mmonit/open-source'
import { asAgent, fixture } from '../../../support/fixtures'
import { ADMIN, startTestServer, type TestServer } from '../../../support/in-process-server'
import { dropDatabaseOf, storeLocation } from '../../../support/test-database'

const AGENTS = ['a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1', 'b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2']
const EVENTS = ['03-event-process-not-running', '04-event-action-done-stop', '11-event-checksum-changed', '12-event-program-status-failed']

let source: TestServer
let root: string
let targetDir: string
let report: ImportReport
let target: Store

const apiUrl = (user: string, password: string) => {
  const url = new URL(source.baseUrl)
  url.username = encodeURIComponent(user)
  url.password = encodeURIComponent(password)
  return url.href
}

beforeAll(async () => {
  source = await startTestServer()
  const hostIds = [await source.addHost(AGENTS[0], 'web-1'), await source.addHost(AGENTS[1], 'db-1')]
  for (const name of EVENTS) await source.collect(asAgent(fixture(name), AGENTS[0], 'web-1'))
  const admin = await source.loginAsAdmin()
  const ok = async (res: Promise<{ status: number; text: string }>) => {
    const { status, text } = await res
    if (status !== 200) throw new Error(`${status} ${text}`)
    return JSON.parse(text) as Record<string, unknown>
  }
  const group = await ok(admin.post('/api/1/admin/groups/create', { name: 'web' }))
  await ok(admin.post('/api/1/admin/groups/add', { id: group.id as number, hostid: hostIds }))
  await ok(
    admin.post('/api/1/admin/users/create', {
      uname: 'carol',
      password: 'carol-password-1',
      fullname: 'Carol C',
      email: 'carol@example.net'
    })
  )
  await ok(
    admin.post('/api/2/admin/roles/create', {
      name: 'operators',
      admin: false,
      active: true,
      rolerowscount: 1,
      hosts0: hostIds[0],
      permission0: 2
    })
  )
  const [first] = (await ok(admin.get('/api/1/reports/events/list', { sort: 'date', dir: 'asc' }))).records as { id: number }[]
  await ok(admin.post('/api/1/reports/events/note', { id: first.id, message: 'looked at it' }))

  root = mkdtempSync(join(tmpdir(), 'overseer-import-api-'))
  targetDir = mkdtempSync(join(root, 'target-'))
  const to = storeLocation(targetDir, 'overseer.sqlite')
  report = await importMMonit({
    from: apiUrl(ADMIN.user, ADMIN.password),
    to,
    keyFile: join(targetDir, 'secret.key'),
    history: false,
    dryRun: false,
    merge: false
  })
  target = new Store(to)
}, 60_000)

afterAll(async () => {
  target?.close()
  dropDatabaseOf(targetDir)
  await source?.stopAndClean()
  rmSync(root, { recursive: true, force: true })
})

const rows = (store: Store, sql: string) => store.sql.rows<Record<string, unknown>>(sql)

describe('import-mmonit --from-api', () => {
  it('imports the hosts with their platform and services, and their groups', () => {
    const hosts =
      'SELECT agent_id, hostname, platform_name, platform_machine, cpu_count, agent_version, control_file, poll FROM host ORDER BY agent_id'
    expect(rows(target, hosts)).toEqual(rows(source.store, hosts))
    expect(rows(target, hosts)).toHaveLength(2)
    const services = 'SELECT h.agent_id, s.name, s.type, s.monitor_mode FROM service s JOIN host h ON h.id = s.host_id ORDER BY 1, 2'
    expect(rows(target, services)).toEqual(rows(source.store, services))
    expect(rows(target, services).length).toBeGreaterThan(10)
    const members =
      'SELECT g.name, h.agent_id FROM host_group_member m JOIN host_group g ON g.id = m.group_id JOIN host h ON h.id = m.host_id ORDER BY 1, 2'
    expect(rows(target, members)).toEqual(AGENTS.map((agent_id) => ({ name: 'web', agent_id })))
  })

  it('imports every event field by field, with its note', () => {
    const events =
      'SELECT h.agent_id, e.service_name, e.service_type, e.class, e.state, e.action, e.message, e.date FROM event e JOIN host h ON h.id = e.host_id ORDER BY e.date, e.service_name, e.class'
    expect(rows(target, events)).toEqual(rows(source.store, events))
    expect(rows(target, events).length).toBeGreaterThan(3)
    expect(report.steps.find((s) => s.name === 'events')).toMatchObject({ imported: rows(source.store, events).length, skipped: [] })
    expect(rows(target, 'SELECT uname, message FROM event_note')).toEqual([{ uname: 'admin', message: 'looked at it' }])
  })

  it('imports the users with their profile and says what the API cannot give', () => {
    expect(rows(target, 'SELECT uname, fullname, email FROM "user" WHERE uname = \'carol\'')).toEqual([
      { uname: 'carol', fullname: 'Carol C', email: 'carol@example.net' }
    ])
    // The stand-in's default User role has host rows too: a custom role as M/Monit's API shows it.
    const custom = (role: string) => `role ${role}: its host permissions are not imported (its members keep the user role)`
    expect(report.limits).toEqual([...API_CANNOT_GIVE, custom('User'), custom('operators')])
    expect(report.steps.map((s) => s.name)).not.toContain('history')
    expect(formatReport(report)).toContain(`not available from this source:\n  ${API_CANNOT_GIVE[0]}\n`)
    expect(report.steps.find((s) => s.name === 'alert rules')).toMatchObject({ expected: 0, imported: 0 })
  })

  it('refuses a wrong password, and a user who is no administrator, without showing the password', async () => {
    const wrong = 'Wr0ng:p@ss/word'
    const refused = await openSource(apiUrl(ADMIN.user, wrong)).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(SourceError)
    expect((refused as Error).message).toMatch(/the login as admin was refused \(wrong user name or password\)/)
    expect((refused as Error).message).not.toContain(wrong)
    expect((refused as Error).message).not.toContain(encodeURIComponent(wrong))

    const carol = await openSource(apiUrl('carol', 'carol-password-1')).catch((e: unknown) => e)
    expect((carol as Error).message).toMatch(/api\/1\/admin\/users\/list: refused \(403\): carol must be an administrator/)
    expect((carol as Error).message).not.toContain('carol-password-1')
  })

  it('takes a redirect back to the login page as a refused login (how other servers answer a wrong password)', async () => {
    // A server that redirects every login and then shows its login page, as M/Monit may on a wrong password.
    const other = createServer((req, res) => {
      if (req.url === '/z_security_check') res.writeHead(302, { location: '/index.csp' }).end()
      else
        res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'zsessionid=abc; Path=/' }).end('<form action="z_security_check">')
    })
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://admin:S3cret@127.0.0.1:${(other.address() as AddressInfo).port}`
      const refused = await openSource(url).catch((e: unknown) => e)
      expect((refused as Error).message).toBe(
        `http://admin:***@127.0.0.1:${(other.address() as AddressInfo).port}/: the login as admin was refused (wrong user name or password)`
      )
    } finally {
      await new Promise((resolve) => other.close(resolve))
    }
  })

  it('stops reading an answer past its bound (a hostile or broken server sending without end)', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'x')
    const endless = createServer((req, res) => {
      if (req.url === '/z_security_check') return res.writeHead(302, { location: '/index.csp' }).end()
      if (req.url === '/index.csp') return res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'zsessionid=abc' }).end('login')
      res.writeHead(200, { 'content-type': 'application/json' })
      let sent = 0
      // One megabyte at a time while the client reads, at most 64: the bound is 32.
      const more = () => {
        while (sent < 64 && !res.destroyed) {
          sent++
          if (!res.write(chunk)) return void res.once('drain', more)
        }
        res.end()
      }
      more()
    })
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve))
    try {
      const refused = await openSource(`http://admin:pw@127.0.0.1:${(endless.address() as AddressInfo).port}`).catch((e: unknown) => e)
      expect((refused as Error).message).toMatch(/api\/1\/session\/get: an answer of more than 33554432 bytes$/)
    } finally {
      endless.closeAllConnections()
      await new Promise((resolve) => endless.close(resolve))
    }
  })

  it('takes --from-api on the command line, without statistics history', () => {
    const args = parseImportArgs(['--from-api', 'https://admin:pw@mmonit.example:8443', '--to', 'sqlite:/tmp/o.sqlite'], {})
    expect(args).toMatchObject({ from: 'https://admin:pw@mmonit.example:8443', history: false })
    expect(() => parseImportArgs(['--from-api', 'ftp://admin:secret@x'], {})).toThrow(
      new UsageError('--from-api ftp://x: expected https://user:password@host:port')
    )
    expect(() => parseImportArgs(['--from', 'sqlite:a.db', '--from-api', 'https://a:b@x'], {})).toThrow(
      new UsageError('--from and --from-api: one source at a time')
    )
  })
})
