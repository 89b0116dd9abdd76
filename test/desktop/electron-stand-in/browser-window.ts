// `BrowserWindow` and its `webContents`: a page load is a real HTTP GET of the URL (data: URLs load
// as they are), reported as Chromium does: did-finish-load and a first ready-to-show, or did-fail-load
// with a net error code (and loadURL's promise rejects, as Electron's does).
import { EventEmitter } from 'node:events'
import type {
  BrowserWindow as ElectronBrowserWindow,
  BrowserWindowConstructorOptions,
  WebContents as ElectronWebContents,
  WindowOpenHandlerResponse
} from 'electron'
import { electronEvents, preventableEvent } from './app-events'
import { observer } from './observations'
import { standIn } from './settings'

type WebContentsSurface = Pick<ElectronWebContents, 'loadURL' | 'reload' | 'getURL' | 'setWindowOpenHandler'>
type WindowSurface = Pick<
  ElectronBrowserWindow,
  'loadURL' | 'show' | 'hide' | 'focus' | 'isVisible' | 'isMinimized' | 'restore' | 'close' | 'destroy' | 'isDestroyed'
>

/** Chromium's net::ERR_CONNECTION_REFUSED, what a load gets when nothing listens. */
const CONNECTION_REFUSED = { errorCode: -102, errorDescription: 'ERR_CONNECTION_REFUSED' }

const emitWebContents = electronEvents<ElectronWebContents>()
const emitWindow = electronEvents<ElectronBrowserWindow>()

let nextId = 1
const windows = new Set<BrowserWindow>()
const created = new EventEmitter<{ 'web-contents-created': [WebContents] }>()

/** app emits web-contents-created for each window's contents. */
export const onWebContentsCreated = (listener: (contents: WebContents) => void) => created.on('web-contents-created', listener)

export class WebContents extends EventEmitter implements WebContentsSurface {
  private url = ''
  private firstLoad = true
  windowOpenHandler: Parameters<ElectronWebContents['setWindowOpenHandler']>[0] | undefined

  constructor(private readonly window: BrowserWindow) {
    super()
  }

  async loadURL(url: string): Promise<void> {
    observer.record({ kind: 'window-load', window: this.window.id, url })
    this.url = url
    const failure = standIn.failNextLoad ?? (url.startsWith('data:') ? undefined : await fetchFailure(url))
    standIn.failNextLoad = undefined
    if (failure) {
      observer.record({ kind: 'window-load-failed', window: this.window.id, url, errorCode: failure.errorCode })
      emitWebContents(this, 'did-fail-load', preventableEvent(), failure.errorCode, failure.errorDescription, url, true, 1, 1)
      throw new Error(`${failure.errorDescription} (${failure.errorCode}) loading '${url}'`)
    }
    emitWebContents(this, 'did-finish-load')
    if (this.firstLoad) {
      this.firstLoad = false
      emitWindow(this.window, 'ready-to-show')
    }
  }

  reload(): void {
    observer.record({ kind: 'window-reloaded', window: this.window.id })
    void this.loadURL(this.url).catch(() => {})
  }

  getURL(): string {
    return this.url
  }

  setWindowOpenHandler(handler: (details: Electron.HandlerDetails) => WindowOpenHandlerResponse): void {
    this.windowOpenHandler = handler
  }
}

async function fetchFailure(url: string): Promise<typeof CONNECTION_REFUSED | undefined> {
  try {
    const response = await fetch(url)
    await response.arrayBuffer()
    return undefined
  } catch {
    return CONNECTION_REFUSED
  }
}

export class BrowserWindow extends EventEmitter implements WindowSurface {
  readonly id = nextId++
  readonly webContents: WebContents
  private visible: boolean
  private destroyed = false

  constructor(readonly options: BrowserWindowConstructorOptions = {}) {
    super()
    this.visible = options.show ?? true
    this.webContents = new WebContents(this)
    windows.add(this)
    observer.record({
      kind: 'window-created',
      window: this.id,
      preload: options.webPreferences?.preload,
      sandbox: options.webPreferences?.sandbox
    })
    created.emit('web-contents-created', this.webContents)
  }

  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url)
  }

  show(): void {
    this.visible = true
    observer.record({ kind: 'window-shown', window: this.id })
  }

  hide(): void {
    this.visible = false
    observer.record({ kind: 'window-hidden', window: this.id })
  }

  focus(): void {
    observer.record({ kind: 'window-focused', window: this.id })
  }

  isVisible(): boolean {
    return this.visible
  }

  isMinimized(): boolean {
    return false
  }

  restore(): void {}

  /** Emits close (which a listener may prevent), then closed. */
  close(): void {
    const event = preventableEvent()
    emitWindow(this, 'close', event)
    if (!event.defaultPrevented) this.destroy()
  }

  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    windows.delete(this)
    emitWindow(this, 'closed')
  }

  isDestroyed(): boolean {
    return this.destroyed
  }

  static getAllWindows(): BrowserWindow[] {
    return [...windows]
  }
}

/** What app.quit() does before will-quit: false when a window refused to close. */
export function closeAllWindows(): boolean {
  for (const window of BrowserWindow.getAllWindows()) window.close()
  return windows.size === 0
}
