// Runs the built Electron main process (out/main/index.js) under plain Node with the stand-in
// `electron` (electron-stand-in/), and lets a test watch and drive it like a user at the desktop.
import { fork, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import type { Observation } from './electron-stand-in/observations'
import type { Command, Report } from './electron-stand-in/protocol'
import type { standIn } from './electron-stand-in/settings'
import { waitFor } from '../support/wait'

const ROOT = resolve(__dirname, '../..')
export const MAIN_JS = resolve(ROOT, 'out/main/index.js')
const REGISTER = resolve(__dirname, 'electron-stand-in/register.ts')
const TSX = require.resolve('tsx/cjs')

export interface AppOptions {
  userData: string
  platform?: NodeJS.Platform
  /** Extra command-line arguments, e.g. --hidden as a login item passes it. */
  argv?: string[]
  env?: NodeJS.ProcessEnv
}

/** An observation and when the test received it (ms). */
export type Seen = Observation & { at: number }

export interface AppUnderTest {
  readonly process: ChildProcess
  readonly seen: Seen[]
  /** Resolves with the exit code (null: killed by a signal). */
  readonly exited: Promise<number | null>
  /** Waits for an observation of `kind` matching `match`, seen from index `from` on. */
  next<K extends Observation['kind']>(
    kind: K,
    match?: (o: Extract<Seen, { kind: K }>) => boolean,
    from?: number,
    timeoutMs?: number
  ): Promise<Extract<Seen, { kind: K }>>
  all<K extends Observation['kind']>(kind: K): Extract<Seen, { kind: K }>[]
  send(command: Command): void
  configure(settings: Partial<typeof standIn>): void
  /** Calls a window.overseerDesktop channel as a page at `frameUrl` would. */
  invoke(channel: string, frameUrl: string, ...args: unknown[]): Promise<unknown>
}

export function launchApp(options: AppOptions): AppUnderTest {
  const child = fork(MAIN_JS, options.argv ?? [], {
    cwd: ROOT,
    execArgv: ['--require', TSX, '--require', REGISTER],
    env: {
      ...process.env,
      ...options.env,
      STANDIN_USER_DATA: options.userData,
      STANDIN_APP_PATH: ROOT,
      STANDIN_PLATFORM: options.platform ?? 'linux'
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc']
  })
  const seen: Seen[] = []
  const replies = new Map<number, (report: Extract<Report, { type: 'reply' }>) => void>()
  let nextId = 1
  let output = ''
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()))
  child.on('message', (report: Report) => {
    if (report.type === 'observed') seen.push({ ...report.observation, at: Date.now() })
    else replies.get(report.id)?.(report)
  })
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  const all = <K extends Observation['kind']>(kind: K) => seen.filter((o) => o.kind === kind) as Extract<Seen, { kind: K }>[]
  const send = (command: Command) => void child.send(command)

  return {
    process: child,
    seen,
    exited,
    all,
    send,
    configure: (settings) => send({ type: 'configure', settings }),
    next: (kind, match = () => true, from = 0, timeoutMs = 30_000) =>
      waitFor(
        `${kind} after observation ${from}`,
        () => seen.slice(from).find((o) => o.kind === kind && match(o as never)) as never,
        timeoutMs
      ).catch((err: Error) => {
        throw new Error(`${err.message}\nobserved: ${JSON.stringify(seen.slice(from))}\napp output:\n${output}`)
      }),
    invoke: (channel, frameUrl, ...args) =>
      new Promise((done, fail) => {
        const id = nextId++
        replies.set(id, (reply) => (reply.error === undefined ? done(reply.result) : fail(new Error(reply.error))))
        send({ type: 'invoke', id, channel, frameUrl, args })
      })
  }
}
