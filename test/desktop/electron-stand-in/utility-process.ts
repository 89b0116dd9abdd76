// `utilityProcess.fork`: a real child process (child_process.fork of the script, with Electron's
// parentPort given to it by parent-port.cjs). As Electron does, a V8 fatal error (the child aborts)
// emits `error` before `exit`; and `exit` carries a number even when a signal ended the child.
import { fork, type ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { constants } from 'node:os'
import { resolve } from 'node:path'
import type { Readable } from 'node:stream'
import type { ForkOptions, UtilityProcess as ElectronUtilityProcess } from 'electron'
import { electronEvents } from './app-events'
import { observer } from './observations'

const emitUtility = electronEvents<ElectronUtilityProcess>()
const PARENT_PORT = resolve(__dirname, 'parent-port.cjs')
/** How V8's fatal errors end a process on POSIX (abort, or a breakpoint trap in release builds). */
const FATAL_SIGNALS = new Set<NodeJS.Signals>(['SIGABRT', 'SIGTRAP'])

export class UtilityProcess
  extends EventEmitter
  implements Pick<ElectronUtilityProcess, 'pid' | 'stdout' | 'stderr' | 'postMessage' | 'kill'>
{
  readonly stdout: Readable | null
  readonly stderr: Readable | null
  private readonly child: ChildProcess

  constructor(modulePath: string, args: string[], options: ForkOptions) {
    super()
    const pipe = options.stdio === 'pipe'
    this.child = fork(modulePath, args, {
      env: (options.env as NodeJS.ProcessEnv | undefined) ?? process.env,
      cwd: options.cwd,
      execArgv: ['--require', PARENT_PORT],
      stdio: [pipe ? 'pipe' : 'ignore', pipe ? 'pipe' : 'inherit', pipe ? 'pipe' : 'inherit', 'ipc']
    })
    this.stdout = this.child.stdout
    this.stderr = this.child.stderr
    const pid = this.child.pid!
    observer.record({ kind: 'utility-process-forked', pid, modulePath, args })
    this.child.on('spawn', () => emitUtility(this, 'spawn'))
    this.child.on('message', (message: unknown) => emitUtility(this, 'message', message))
    this.child.once('exit', (code, signal) => {
      if (signal && FATAL_SIGNALS.has(signal)) emitUtility(this, 'error', 'FatalError', modulePath, `the process received ${signal}`)
      const exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0)
      observer.record({ kind: 'utility-process-exited', pid, code: exitCode })
      emitUtility(this, 'exit', exitCode)
    })
  }

  get pid(): number | undefined {
    return this.child.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined
  }

  postMessage(message: unknown): void {
    this.child.send(message as object)
  }

  /** SIGTERM on POSIX, as Electron's. */
  kill(): boolean {
    return this.child.kill('SIGTERM')
  }
}

type ElectronFork = (typeof import('electron'))['utilityProcess']['fork']

export const utilityProcess = {
  fork: (...[modulePath, args = [], options = {}]: Parameters<ElectronFork>) => new UtilityProcess(modulePath, args, options)
}
