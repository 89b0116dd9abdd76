// The built entry, out/main/server.js, run as users run it.
import { execFile, fork } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { DATABASE_FILE } from '../../src/server/server'
import { Store } from '../../src/server/store/store'
import { postCollector } from '../support/collector-client'
import { asAgent, fixture } from '../support/fixtures'
import { removeDir, SERVER_JS, startBuiltServer, type BuiltServer } from '../support/built-server'
import { storeLocation } from '../support/test-database'
import { waitFor } from '../support/wait'

const run = promisify(execFile)
let server: BuiltServer | undefined
afterEach(async () => {
  if (server) {
    await server.kill()
    removeDir(server.dataDir)
    server = undefined
  }
})

describe('node out/main/server.js', () => {
  it('logs each listening address, creates the first users, and stops cleanly on SIGTERM', async () => {
    server = await startBuiltServer({ args: ['--init-admin', 'admin:first', '--init-collector', 'monit:abc123'] })
    const lines = server.output().split('\n')
    expect(lines.filter((l) => l.includes('listening on '))).toEqual([
      expect.stringMatching(`INFO  listening on http://127.0.0.1:${server.port}$`)
    ])
    expect(server.output()).toContain('created administrator admin')
    expect(server.output()).not.toContain('first') // never log passwords
    expect(server.output()).not.toContain('no user exists yet')
    expect((await postCollector(server.baseUrl, fixture('02-status-heartbeat'), { auth: 'monit:abc123' })).status).toBe(200)
    expect(await server.stop()).toBe(0)
    expect(server.output()).toContain('SIGTERM received, shutting down')
  })

  it('ignores --init-admin once users exist (no password can be reset by restarting)', async () => {
    server = await startBuiltServer({ args: ['--init-admin', 'admin:first'] })
    const { dataDir } = server
    await server.stop()
    server = await startBuiltServer({ dataDir, args: ['--init-admin', 'intruder:second'] })
    expect(server.output()).toContain('--init-admin ignored: users exist already')
    const db = new Store(storeLocation(dataDir, DATABASE_FILE))
    expect(db.sql.plain.prepare('SELECT uname FROM "user"').all()).toEqual([{ uname: 'admin' }])
    db.close()
  })

  it('listens on every interface by default and reads settings from the environment; with no user yet, says where to finish setup', async () => {
    const started = (server = await startBuiltServer({ env: { OVERSEER_HOST: '0.0.0.0' }, args: [] }))
    expect(started.output()).toContain(`listening on http://127.0.0.1:${started.port}`)
    // A warning goes to stderr, the "listening" lines to stdout: it may come through its pipe a little later.
    const hint = `WARN  no user exists yet: open http://127.0.0.1:${started.port}/ in a browser on this machine`
    await waitFor('the first-run hint', () => started.output().includes(hint))
  })

  it('writes JSON lines with --log-format json, an access line per request with --access-log on', async () => {
    server = await startBuiltServer({ args: ['--log-format', 'json', '--access-log', 'on'] })
    expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200)
    expect(await server.stop()).toBe(0)
    const records = server
      .output()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(records).toContainEqual(expect.objectContaining({ level: 'info', msg: `listening on http://127.0.0.1:${server.port}` }))
    expect(records).toContainEqual(expect.objectContaining({ level: 'info', method: 'GET', path: '/health', status: 200 }))
  })

  it('exits with status 2 and a clear message on a bad setting', async () => {
    const failed = await run(process.execPath, [SERVER_JS, '--port', 'x'], { timeout: 10_000 }).catch(
      (e: { code: number; stderr: string }) => e
    )
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('invalid configuration: --port must be a number') })
  })

  it('loses nothing it acknowledged when killed right after (SIGKILL)', async () => {
    server = await startBuiltServer({ args: ['--init-collector', 'monit:abc123'] })
    const acknowledged: string[] = []
    for (let i = 0; i < 30; i++) {
      const id = i.toString(16).padStart(32, '0')
      const res = await postCollector(server.baseUrl, asAgent(fixture('03-event-process-not-running'), id), { auth: 'monit:abc123' })
      if (res.status === 200) acknowledged.push(id)
    }
    await server.kill()
    expect(acknowledged).toHaveLength(30)
    const db = new Store(storeLocation(server.dataDir, DATABASE_FILE))
    const stored = db.sql.plain
      .prepare('SELECT h.agent_id, COUNT(e.id) AS events FROM host h JOIN event e ON e.host_id = h.id GROUP BY h.id ORDER BY h.id')
      .all()
    db.close()
    expect(stored).toHaveLength(30)
    expect(stored).toEqual(acknowledged.map((agent_id) => ({ agent_id, events: 1 })))
  })

  it('says clearly when its port is taken: a message to the parent, exit status 3', async () => {
    const blocker = await new Promise<Server>((done) => {
      const server = createServer()
      server.listen(0, '127.0.0.1', () => done(server))
    })
    const port = (blocker.address() as { port: number }).port
    const dataDir = mkdtempSync(join(tmpdir(), 'overseer-test-'))
    try {
      const child = fork(SERVER_JS, ['--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir], {
        execArgv: [],
        stdio: ['ignore', 'ignore', 'pipe', 'ipc']
      })
      let stderr = ''
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
      const messages: unknown[] = []
      child.on('message', (m) => messages.push(m))
      const code = await new Promise<number | null>((done) => child.once('exit', done))
      expect(code).toBe(3)
      expect(messages).toEqual([
        {
          type: 'error',
          code: 'EADDRINUSE',
          port,
          message: `port ${port} is already in use on 127.0.0.1: stop the program using it or choose another --port`
        }
      ])
      expect(stderr).toContain(`port ${port} is already in use`)
      expect(stderr).not.toContain('server failed to start')
    } finally {
      blocker.close()
      removeDir(dataDir)
    }
  })
})
