// `app`: lifecycle events, the single-instance lock (SingletonLock and SingletonSocket in userData, as
// Chromium's on POSIX), paths, and the login item with each platform's documented behaviour.
import { EventEmitter } from 'node:events'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect, createServer, type Server } from 'node:net'
import { join } from 'node:path'
import type { App, LoginItemSettings, LoginItemSettingsOptions, Settings } from 'electron'
import { isAlive } from '../forked-server-process'
import { closeAllWindows, onWebContentsCreated } from './browser-window'
import { electronEvents, preventableEvent } from './app-events'
import { observer } from './observations'
import { standIn } from './settings'

type AppSurface = Pick<
  App,
  | 'requestSingleInstanceLock'
  | 'quit'
  | 'exit'
  | 'whenReady'
  | 'getPath'
  | 'setAppLogsPath'
  | 'setAppUserModelId'
  | 'getVersion'
  | 'getAppPath'
  | 'isPackaged'
  | 'getLoginItemSettings'
  | 'setLoginItemSettings'
>

/** Windows' Run key entries by command line; macOS' login items by app. */
const loginItems = new Map<string, Settings>()
const loginKey = (path: string | undefined, args: readonly string[] | undefined) =>
  process.platform === 'win32' ? JSON.stringify([path ?? process.execPath, ...(args ?? [])]) : 'app'

const emitApp = electronEvents<App>()

class StandInApp extends EventEmitter implements AppSurface {
  readonly isPackaged = false
  private readonly ready: Promise<void>
  private lockServer: Server | undefined
  private pendingHandOver: Promise<void> = Promise.resolve()
  private quitting = false

  constructor() {
    super()
    // The stand-in WebContents has what the app uses of Electron's (WebContentsSurface), not all of it.
    onWebContentsCreated((contents) =>
      emitApp(this, 'web-contents-created', preventableEvent(), contents as unknown as Electron.WebContents)
    )
    this.ready = new Promise((done) =>
      setImmediate(() => {
        emitApp(this, 'ready', preventableEvent(), {})
        done()
      })
    )
  }

  whenReady(): Promise<void> {
    return this.ready
  }

  /** Chromium's POSIX process singleton: SingletonLock names the owner's PID, SingletonSocket reaches it. */
  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean {
    const lock = join(standIn.userData, 'SingletonLock')
    const socket = join(standIn.userData, 'SingletonSocket')
    const owner = Number(existsSync(lock) ? readFileSync(lock, 'utf8') : NaN)
    if (owner && owner !== process.pid && isAlive(owner)) {
      // Another instance holds the lock: hand it our command line (it emits second-instance) and lose.
      this.pendingHandOver = new Promise((done) => {
        const client = connect(socket, () => client.end(JSON.stringify({ argv: process.argv, cwd: process.cwd(), additionalData })))
        client.on('close', () => done()).on('error', () => done())
      })
      return false
    }
    writeFileSync(lock, String(process.pid))
    rmSync(socket, { force: true }) // left by a crashed instance
    this.lockServer = createServer((client) => {
      let text = ''
      client.on('data', (d: Buffer) => (text += d.toString()))
      client.on('end', () => {
        const { argv, cwd, additionalData: data } = JSON.parse(text) as { argv: string[]; cwd: string; additionalData: unknown }
        observer.record({ kind: 'second-instance', argv })
        emitApp(this, 'second-instance', preventableEvent(), argv, cwd, data)
      })
    }).listen(socket)
    this.lockServer.unref()
    return true
  }

  /** Electron's order: before-quit, every window closed (any may refuse), will-quit, quit, exit. */
  quit(): void {
    if (this.quitting) return
    const beforeQuit = preventableEvent()
    emitApp(this, 'before-quit', beforeQuit)
    if (beforeQuit.defaultPrevented || !closeAllWindows()) return
    const willQuit = preventableEvent()
    emitApp(this, 'will-quit', willQuit)
    if (willQuit.defaultPrevented) return
    this.quitting = true
    emitApp(this, 'quit', preventableEvent(), 0)
    this.exit(0)
  }

  exit(exitCode = 0): void {
    this.quitting = true
    this.lockServer?.close()
    observer.record({ kind: 'quit' })
    void this.pendingHandOver.then(() => setImmediate(() => process.exit(exitCode)))
  }

  getPath(name: Parameters<App['getPath']>[0]): string {
    if (name !== 'userData') throw new Error(`stand-in: getPath('${name}') is not modelled`)
    return standIn.userData
  }

  setAppLogsPath(): void {}

  setAppUserModelId(): void {}

  getVersion(): string {
    return standIn.version
  }

  getAppPath(): string {
    return standIn.appPath
  }

  /** Electron: on Windows `openAtLogin` is true only for the same path and args as were set; Linux has none. */
  getLoginItemSettings(options?: LoginItemSettingsOptions): LoginItemSettings {
    const set = process.platform !== 'linux' && loginItems.get(loginKey(options?.path, options?.args))
    return {
      openAtLogin: Boolean(set && set.openAtLogin),
      wasOpenedAtLogin: false,
      status: set ? 'enabled' : 'not-registered',
      executableWillLaunchAtLogin: Boolean(set),
      launchItems: []
    }
  }

  setLoginItemSettings(settings: Settings): void {
    observer.record({ kind: 'login-item-set', settings })
    if (process.platform === 'linux') return
    const key = loginKey(settings.path, settings.args)
    if (settings.openAtLogin) loginItems.set(key, settings)
    else loginItems.delete(key)
  }
}

export const app = new StandInApp()
