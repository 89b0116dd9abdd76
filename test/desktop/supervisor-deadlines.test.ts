// The supervisor's start-up deadline and early exits, with a scripted server process (the timing
// must be exact): a "migrating" message extends the deadline, and an early exit for a taken port that
// the shell did not choose does not become "port 0 is in use".
import { describe, expect, it } from 'vitest'
import { PortInUseError, ServerStartError, ServerSupervisor, type ServerProcess, type SupervisorEvent } from '../../src/main/supervisor'
import { EXIT_PORT_IN_USE, type ServerToShellMessage } from '../../src/shared/desktop-api'

type Step = { afterMs: number } & ({ send: ServerToShellMessage } | { exit: number })

/** A server process that sends and exits as scripted; forceKill ends it with a signal. */
function scripted(steps: Step[]): { process: ServerProcess; killed: () => boolean } {
  let onMessage: (message: unknown) => void = () => {}
  let onExit: (code: number | null) => void = () => {}
  let killed = false
  const timers = steps.map((step) => setTimeout(() => ('send' in step ? onMessage(step.send) : end(step.exit)), step.afterMs))
  const end = (code: number | null) => {
    timers.forEach(clearTimeout)
    onExit(code)
  }
  const process: ServerProcess = {
    pid: 4242,
    onMessage: (listener) => (onMessage = listener),
    onExit: (listener) => (onExit = listener),
    terminate: () => end(0),
    forceKill: () => {
      killed = true
      end(null)
    }
  }
  return { process, killed: () => killed }
}

const ready: ServerToShellMessage = { type: 'ready', port: 8080, urls: ['http://127.0.0.1:8080'] }
const migrating: ServerToShellMessage = { type: 'migrating', fromVersion: 7, toVersion: 9 }

function supervise(server: ServerProcess, events: SupervisorEvent[] = []): ServerSupervisor {
  return new ServerSupervisor({
    launch: () => server,
    args: [],
    readyTimeoutMs: 200,
    migrationTimeoutMs: 1_000,
    onEvent: (e) => events.push(e)
  })
}

describe('server supervisor: start-up deadline', () => {
  it('kills a server that is not ready in time', async () => {
    const server = scripted([{ afterMs: 600, send: ready }])
    await expect(supervise(server.process).start(8080)).rejects.toThrow('the server was not ready within 200 ms')
    expect(server.killed()).toBe(true)
  })

  it('waits for a server that reports it is migrating its database', async () => {
    const server = scripted([
      { afterMs: 50, send: migrating },
      { afterMs: 600, send: ready }
    ])
    const events: SupervisorEvent[] = []
    expect(await supervise(server.process, events).start(8080)).toEqual({ port: 8080, urls: ['http://127.0.0.1:8080'] })
    expect(events.map((e) => e.type)).toEqual(['migrating', 'ready'])
    expect(events[0]).toEqual({ type: 'migrating', fromVersion: 7, toVersion: 9 })
    expect(server.killed()).toBe(false)
  })

  it('still gives a migration a deadline of its own', async () => {
    const server = scripted([
      { afterMs: 50, send: migrating },
      { afterMs: 5_000, send: ready }
    ])
    await expect(supervise(server.process).start(8080)).rejects.toThrow('the server was not done migrating its database within 1000 ms')
    expect(server.killed()).toBe(true)
  })
})

describe('server supervisor: early exit because the port is taken', () => {
  it('names the port it asked for', async () => {
    const failure = await supervise(scripted([{ afterMs: 10, exit: EXIT_PORT_IN_USE }]).process)
      .start(8080)
      .catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(PortInUseError)
    expect(failure).toMatchObject({ port: 8080, message: 'port 8080 is already in use' })
  })

  it('is a start failure, not "port 0 is in use", when the server chose its port itself', async () => {
    for (const port of [undefined, 0]) {
      const failure = await supervise(scripted([{ afterMs: 10, exit: EXIT_PORT_IN_USE }]).process)
        .start(port)
        .catch((e: unknown) => e)
      expect(failure).toBeInstanceOf(ServerStartError)
      expect((failure as Error).message).toBe('the server exited because the port it chose is in use (its log names it)')
    }
  })
})
