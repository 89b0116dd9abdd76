// The supervisor driving the real built server (out/main/server.js) through child_process.fork, as the
// Electron shell drives it through a utility process: ready and port, crash → restart with backoff,
// port in use, clean stop with no orphan.
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BackoffPolicy } from '../../src/main/backoff'
import { nextFreePort } from '../../src/main/port-suggestion'
import { PortInUseError, ServerSupervisor, type SupervisorEvent, type SupervisorOptions } from '../../src/main/supervisor'
import type { ServerToShellMessage } from '../../src/shared/desktop-api'
import { removeDir } from '../support/built-server'
import { waitFor } from '../support/wait'
import { forkedServerLauncher, isAlive, type ForkedLauncher } from './forked-server-process'

const quickBackoff: BackoffPolicy = { initialMs: 300, maxMs: 2_000, healthyAfterMs: 60_000, maxFailures: 3 }
let dataDir: string
let launcher: ForkedLauncher
let supervisor: ServerSupervisor | undefined
let blocker: Server | undefined
let events: (SupervisorEvent & { at: number })[]
let messages: ServerToShellMessage[]

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'overseer-desktop-'))
  launcher = forkedServerLauncher()
  events = []
  messages = []
})
afterEach(async () => {
  await supervisor?.stop()
  supervisor = undefined
  await new Promise((done) => (blocker ? blocker.close(done) : done(undefined)))
  blocker = undefined
  for (const pid of launcher.pids) expect(isAlive(pid), `process ${pid} left behind`).toBe(false)
  removeDir(dataDir)
})

function supervise(options: Partial<SupervisorOptions> = {}): ServerSupervisor {
  supervisor = new ServerSupervisor({
    launch: launcher.launch,
    args: ['--host', '127.0.0.1', '--data-dir', dataDir],
    backoff: quickBackoff,
    onMessage: (m) => messages.push(m),
    onEvent: (e) => events.push({ ...e, at: Date.now() }),
    ...options
  })
  return supervisor
}

function occupy(port: number): Promise<Server> {
  return new Promise((done, fail) => {
    const server = createServer().once('error', fail)
    server.listen(port, '127.0.0.1', () => done(server))
  })
}

const health = (port: number) => fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status)
const eventsOf = <T extends SupervisorEvent['type']>(type: T) =>
  events.filter((e) => e.type === type) as (Extract<SupervisorEvent, { type: T }> & { at: number })[]

// Each test starts the real server several times (1–5 s each on a loaded 2-core machine).
describe('server supervisor (real out/main/server.js)', { timeout: 120_000 }, () => {
  it('learns the port from the ready message, relays the bridge messages, and stops cleanly', async () => {
    const s = supervise()
    const endpoint = await s.start(0)
    expect(endpoint.port).toBeGreaterThan(0)
    expect(endpoint.urls).toEqual([`http://127.0.0.1:${endpoint.port}`])
    expect(await health(endpoint.port)).toBe(200)
    expect(messages).toEqual([
      { type: 'setup', needed: true },
      { type: 'hosts', leds: { red: 0, orange: 0, green: 0, gray: 0 } }
    ])
    const pid = s.pid!
    expect(isAlive(pid)).toBe(true)
    await s.stop()
    expect(isAlive(pid)).toBe(false)
    expect(s.pid).toBeUndefined()
    expect(launcher.output()).toContain('SIGTERM received, shutting down')
    expect(eventsOf('crashed')).toEqual([]) // a requested stop is not a crash
  })

  it('restarts a killed server on the same port, waiting longer after each crash', async () => {
    const s = supervise()
    const { port } = await s.start(0)
    for (const expectedDelay of [300, 600]) {
      const before = s.pid!
      const readies = eventsOf('ready').length
      process.kill(before, 'SIGKILL')
      await waitFor('the restart', () => eventsOf('ready').length > readies, 30_000)
      const crash = eventsOf('crashed').at(-1)!
      expect(crash).toMatchObject({ code: null, restartInMs: expectedDelay })
      const ready = eventsOf('ready').at(-1)!
      expect(ready.at - crash.at).toBeGreaterThanOrEqual(expectedDelay - 20)
      expect(ready.endpoint.port).toBe(port)
      expect(s.pid).not.toBe(before)
      expect(isAlive(before)).toBe(false)
      expect(await health(port)).toBe(200)
    }
    expect(launcher.pids).toHaveLength(3)
  })

  it('reports a taken port clearly, suggests a free one, and starts on another port', async () => {
    blocker = await occupy(0)
    const taken = (blocker.address() as { port: number }).port
    const s = supervise()
    const failure = await s.start(taken).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(PortInUseError)
    expect(failure).toMatchObject({ port: taken, message: expect.stringContaining(`port ${taken} is already in use`) })
    expect(s.pid).toBeUndefined()

    const suggestion = await nextFreePort(taken, '127.0.0.1')
    expect(suggestion).toBeGreaterThan(taken)
    const endpoint = await s.start(suggestion!)
    expect(endpoint.port).toBe(suggestion)
    expect(await health(endpoint.port)).toBe(200)
  })

  it('gives up after repeated failed restarts (its port was taken meanwhile), and can be started again', async () => {
    const s = supervise({ backoff: { ...quickBackoff, initialMs: 500, maxFailures: 2 } })
    const { port } = await s.start(0)
    const crashed = new Promise<void>((done) => {
      const seen = events.length
      const timer = setInterval(() => {
        if (events.slice(seen).some((e) => e.type === 'crashed')) {
          clearInterval(timer)
          done()
        }
      }, 5)
    })
    process.kill(s.pid!, 'SIGKILL')
    await crashed
    blocker = await occupy(port) // before the 500 ms restart
    await waitFor('giving up', () => eventsOf('gave-up').length === 1, 60_000)
    expect(events.map((e) => e.type)).toEqual(['ready', 'crashed', 'restart-failed', 'gave-up'])
    expect(eventsOf('restart-failed')[0].error).toBeInstanceOf(PortInUseError)
    expect(eventsOf('gave-up')[0].failures).toBe(3)
    expect(s.pid).toBeUndefined()
    await new Promise((done) => blocker!.close(done))
    blocker = undefined
    expect((await s.start(port)).port).toBe(port)
  })

  it('kills a server that does not stop in time, leaving no orphan', async () => {
    // A hung server: the clean-stop request goes nowhere.
    const s = supervise({
      stopTimeoutMs: 500,
      launch: (args) => ({ ...launcher.launch(args), terminate: () => {} })
    })
    await s.start(0)
    const pid = s.pid!
    const started = Date.now()
    await s.stop()
    expect(Date.now() - started).toBeGreaterThanOrEqual(480)
    expect(isAlive(pid)).toBe(false)
  })
})
