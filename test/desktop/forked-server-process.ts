// The supervisor's ServerProcess over child_process.fork of the built out/main/server.js: what the
// Electron shell does with a utility process, done with plain Node so tests can run it.
import { fork } from 'node:child_process'
import type { ServerLauncher } from '../../src/main/supervisor'
import { SERVER_JS } from '../support/built-server'

export interface ForkedLauncher {
  launch: ServerLauncher
  /** Every PID launched, in order. */
  pids: number[]
  /** Everything the processes printed. */
  output(): string
}

export function forkedServerLauncher(): ForkedLauncher {
  const pids: number[] = []
  let output = ''
  const launch: ServerLauncher = (args) => {
    // Plain node, as users run it: not the caller's loader flags (vitest).
    const child = fork(SERVER_JS, args, { execArgv: [], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
    if (child.pid) pids.push(child.pid)
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()))
    return {
      pid: child.pid,
      onMessage: (listener) => child.on('message', listener),
      onExit: (listener) => child.once('exit', (code) => listener(code)),
      terminate: () => void child.kill('SIGTERM'),
      forceKill: () => void child.kill('SIGKILL')
    }
  }
  return { launch, pids, output: () => output }
}

/** True while a process with this PID exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
