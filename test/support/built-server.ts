// Runs the built headless server (out/main/server.js) as a child process, the way users and the
// Electron shell run it, and learns its port from the IPC ready message.
import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { databaseFor, dropDatabaseOf } from './test-database'
import { join, resolve } from 'node:path'

export const SERVER_JS = resolve(__dirname, '../../out/main/server.js')

export interface BuiltServer {
  child: ChildProcess
  port: number
  baseUrl: string
  dataDir: string
  /** Everything the process printed so far. */
  output(): string
  /** SIGTERM and wait for exit; returns the exit code. */
  stop(): Promise<number | null>
  /** SIGKILL and wait: a crash. */
  kill(): Promise<void>
}

export interface BuiltServerOptions {
  args?: string[]
  dataDir?: string
  /** A database of the test's own (`--database`), instead of the engine the tests run on. */
  database?: string
  env?: NodeJS.ProcessEnv
  /** Node flags for the server (e.g. --cpu-prof); none by default. */
  execArgv?: string[]
  timeoutMs?: number
}

export async function startBuiltServer(opts: BuiltServerOptions = {}): Promise<BuiltServer> {
  const ownDir = opts.dataDir === undefined
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'overseer-test-'))
  const database = opts.database ?? databaseFor(dataDir)
  const engineArgs = database ? ['--database', database] : []
  const child = fork(SERVER_JS, ['--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir, ...engineArgs, ...(opts.args ?? [])], {
    env: { ...process.env, ...opts.env },
    // Plain node, as users run it: not the caller's loader flags (vitest, tsx).
    execArgv: opts.execArgv ?? [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc']
  })
  let output = ''
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()))
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))

  const ready = new Promise<number>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`server not ready in time:\n${output}`)), opts.timeoutMs ?? 15_000)
    // The ready message (IPC) can overtake the "listening on" log lines (stdout pipe): wait for both.
    let readyPort: number | undefined
    const settleWhenBoth = () => {
      if (readyPort === undefined || !output.includes('listening on')) return
      clearTimeout(timer)
      done(readyPort)
    }
    child.stdout!.on('data', settleWhenBoth)
    child.on('message', (m: { type?: string; port?: number }) => {
      if (m.type === 'ready' && m.port) {
        readyPort = m.port
        settleWhenBoth()
      }
    })
    void exited.then((code) => {
      clearTimeout(timer)
      fail(new Error(`server exited with code ${code} before it was ready:\n${output}`))
    })
  })
  let port: number
  try {
    port = await ready
  } catch (err) {
    child.kill('SIGKILL')
    await exited
    if (ownDir) removeDir(dataDir)
    throw err
  }
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    return exited
  }
  return {
    child,
    port,
    dataDir,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: () => stopWith('SIGTERM'),
    kill: async () => void (await stopWith('SIGKILL'))
  }
}

/** Removes a data folder and, on PostgreSQL, its database. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
  dropDatabaseOf(dir)
}
