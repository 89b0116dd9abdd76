// The built server on the Node the suite runs with (Node 24 in CI, as in the Electron it ships in),
// exercised where a native module meets Node's lifecycle: better-sqlite3 ≤ 12 aborted the process
// (SIGABRT in Statement::~Statement, via RemoveEnvironmentCleanupHook) once statements were finalised
// on Node 24. Here statements are garbage-collected (test/support/gc-pressure.cjs) and the ingest
// thread is ended and replaced several times while agents report; the process must live on and stop
// cleanly.
import { resolve } from 'node:path'
import { setTimeout } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { postCollector } from '../../support/collector-client'
import { asAgent, fixture } from '../../support/fixtures'
import { removeDir, startBuiltServer, type BuiltServer } from '../../support/built-server'
import { loginAs } from '../../support/api-client'

const GC_PRESSURE = resolve(__dirname, '../../support/gc-pressure.cjs')
const AGENTS = 20
const MESSAGES = 200
const RESTARTS = 3

describe('native modules under garbage collection and thread restarts', () => {
  it('stores a few hundred messages while statements are collected and the ingest thread replaced, then exits 0', async () => {
    const server = await startBuiltServer({
      args: ['--init-admin', 'admin:native', '--init-collector', 'monit:abc123'],
      execArgv: ['--expose-gc', '--require', GC_PRESSURE],
      env: { OVERSEER_TEST_INGEST_MESSAGES: String(MESSAGES / (RESTARTS + 1)) }
    })
    try {
      await reportThroughRestarts(server)
      const api = await loginAs(server.baseUrl, 'admin', 'native')
      expect((await api.get('/api/2/status/hosts/list', { results: 100 })).json).toMatchObject({ records: { length: AGENTS } })
      expect(await server.stop()).toBe(0)
      expect(server.output()).not.toMatch(/Assertion failed|SIGABRT|core dumped/)
    } finally {
      await server.kill()
      removeDir(server.dataDir)
    }
  }, 120_000)
})

/** Posts until MESSAGES are stored and the ingest thread was replaced RESTARTS times; bounded by the test's time-out. */
async function reportThroughRestarts(server: BuiltServer): Promise<void> {
  const restarts = () => server.output().match(/ingest thread exited \(code 3\); starting a new one/g)?.length ?? 0
  const body = (i: number) =>
    asAgent(fixture(i % 3 === 0 ? '03-event-process-not-running' : '02-status-heartbeat'), (i % AGENTS).toString(16).padStart(32, '0'))
  let stored = 0
  // Messages the ingest thread was storing when it ended fail (500), as do those until the next is ready: agents send them again.
  while (stored < MESSAGES || restarts() < RESTARTS) {
    expect(server.child.exitCode, server.output()).toBeNull()
    const res = await postCollector(server.baseUrl, body(stored), { auth: 'monit:abc123' })
    if (res.status === 200) stored++
    else {
      expect([500, 503], res.body).toContain(res.status)
      // Sent again a little later, as an agent would: nothing tells when the new thread is ready.
      await setTimeout(100)
    }
  }
}
