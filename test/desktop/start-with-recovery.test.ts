// What the shell does when the server cannot start, with the real supervisor and built server: the
// answers the user would give in the dialogs are given directly.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { nextFreePort } from '../../src/main/port-suggestion'
import { startWithRecovery, type PortChoice, type StartRecovery } from '../../src/main/start-with-recovery'
import { ServerSupervisor } from '../../src/main/supervisor'
import { removeDir } from '../support/built-server'
import { forkedServerLauncher, isAlive, type ForkedLauncher } from './forked-server-process'

let dataDir: string
let launcher: ForkedLauncher
let supervisor: ServerSupervisor
let blocker: Server | undefined
let asked: string[]
let remembered: number[]

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'overseer-desktop-'))
  launcher = forkedServerLauncher()
  asked = []
  remembered = []
})
afterEach(async () => {
  await supervisor.stop()
  await new Promise((done) => (blocker ? blocker.close(done) : done(undefined)))
  blocker = undefined
  for (const pid of launcher.pids) expect(isAlive(pid)).toBe(false)
  removeDir(dataDir)
})

function recovery(
  dir: string,
  answers: { port?: (suggestion: number | undefined) => PortChoice; failure?: 'retry' | 'quit' }
): StartRecovery {
  supervisor = new ServerSupervisor({ launch: launcher.launch, args: ['--host', '127.0.0.1', '--data-dir', dir] })
  return {
    start: (port) => supervisor.start(port),
    cancelled: () => false,
    suggestPort: (taken) => nextFreePort(taken, '127.0.0.1'),
    ask: {
      port: async (taken, suggestion) => {
        asked.push(`port ${taken} taken, suggested ${suggestion}`)
        return answers.port!(suggestion)
      },
      afterFailure: async (reason) => {
        asked.push(reason)
        return answers.failure!
      }
    },
    rememberPort: (port) => remembered.push(port)
  }
}

async function takenPort(): Promise<number> {
  blocker = await new Promise<Server>((done) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => done(server))
  })
  return (blocker.address() as { port: number }).port
}

describe('starting the server with recovery', { timeout: 120_000 }, () => {
  it('moves to the suggested free port when the user accepts it, and remembers it', async () => {
    const taken = await takenPort()
    const endpoint = await startWithRecovery(taken, recovery(dataDir, { port: (suggestion) => ({ action: 'use', port: suggestion! }) }))
    expect(asked).toEqual([expect.stringMatching(new RegExp(`^port ${taken} taken, suggested \\d+$`))])
    expect(endpoint!.port).toBeGreaterThan(taken)
    expect(remembered).toEqual([endpoint!.port])
  })

  it('ends with nothing running when the user quits', async () => {
    const taken = await takenPort()
    expect(await startWithRecovery(taken, recovery(dataDir, { port: () => ({ action: 'quit' }) }))).toBeUndefined()
    expect(supervisor.pid).toBeUndefined()
    expect(remembered).toEqual([])
  })

  it('asks nothing when the start failed because the app is quitting', async () => {
    const taken = await takenPort()
    expect(await startWithRecovery(taken, { ...recovery(dataDir, {}), cancelled: () => true })).toBeUndefined()
    expect(asked).toEqual([])
    expect(supervisor.pid).toBeUndefined()
  })

  it('offers a retry when the server fails for another reason, and says why', async () => {
    const notADirectory = join(dataDir, 'file')
    writeFileSync(notADirectory, '')
    expect(await startWithRecovery(0, recovery(notADirectory, { failure: 'quit' }))).toBeUndefined()
    expect(asked).toEqual(['the server exited with code 1 before it was ready'])
    expect(launcher.output()).toContain('server failed to start')
  })
})
