// Electron shell (thin): one instance, the server supervised in a utility process, the console window
// on the server's origin, a tray that keeps collecting after the window closes, notifications.
// Every decision lives in the Electron-free modules beside this file; this one wires them to Electron.
import { join } from 'node:path'
import { app, BrowserWindow, session, shell } from 'electron'
import type { LedCounts, ServerToShellMessage } from '../shared/desktop-api'
import { homeUrl, consoleOrigin, setupUrl } from './console-routes'
import { createDesktopApi } from './desktop-api'
import { loadSettings, saveSettings, type DesktopSettings } from './desktop-settings'
import { askAfterServerFailure, askForAnotherPort } from './dialogs'
import { serveDesktopApi } from './ipc'
import { autostartFile } from './linux-autostart'
import { LOAD_ABORTED, loadFailurePage } from './load-failure-page'
import { LOG_DIR, openServerLog } from './log-file'
import { AlertNotifier } from './notifications'
import { ownCertificateVerifier } from './own-certificate'
import { nextFreePort } from './port-suggestion'
import { enforceConsoleOrigin } from './security'
import { startAtLogin } from './start-at-login'
import { startWithRecovery } from './start-with-recovery'
import { ServerSupervisor, type ServerEndpoint, type SupervisorEvent } from './supervisor'
import { StatusTray } from './tray'
import { trayState, type ServerState } from './tray-led'
import { utilityServerLauncher } from './utility-server-process'
import { secureWebPreferences } from './web-preferences'
import { onWindowsSessionEnd } from './windows-session-end'

const PRODUCT = 'Overseer'
const APP_ID = 'org.overseer.desktop'
/** Given by the login item / autostart entry: start in the tray, without the window. */
const HIDDEN_FLAG = '--hidden'

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  runShell()
}

function runShell(): void {
  const dataDir = app.getPath('userData')
  app.setAppLogsPath(join(dataDir, LOG_DIR))
  const logFile = join(dataDir, LOG_DIR, 'server.log')
  const serverLog = openServerLog(dataDir)
  const logWarning = (line: string) => serverLog.write(`${new Date().toISOString()} WARN  desktop: ${line}\n`)
  const loaded = loadSettings(dataDir)
  if (loaded.problem) logWarning(loaded.problem)
  let settings: DesktopSettings = loaded.settings

  // Known once the server is ready (no window is opened before).
  let origin = ''
  /** The certificate the server announced in its last ready message (undefined without TLS). */
  let pinnedFingerprint: string | undefined
  let serverState: ServerState = 'starting'
  let everReady = false
  let leds: LedCounts | undefined
  let setupNeeded = false
  let notificationsPaused = false
  let quitting = false
  let stopped = false
  let window: BrowserWindow | undefined
  /** The console page the window could not load, loaded again once the server is (back) up. */
  let failedUrl: string | undefined
  let tray: StatusTray | undefined

  const updateSettings = (change: Partial<DesktopSettings>) => {
    settings = { ...settings, ...change }
    saveSettings(dataDir, settings)
  }
  const refreshTray = () => tray?.show(trayState(PRODUCT, serverState, leds))

  const load = (url: string) => {
    // A failure is handled on did-fail-load; the promise's rejection says the same again.
    window?.loadURL(url).catch(() => {})
  }

  const showWindow = (url?: string) => {
    if (!everReady || quitting) return // opened once the server is ready; not while quitting
    if (!window) {
      window = new BrowserWindow({
        width: 1280,
        height: 820,
        show: false,
        title: PRODUCT,
        icon: app.isPackaged ? join(process.resourcesPath, 'icon.png') : join(app.getAppPath(), 'resources/icons/256x256.png'),
        webPreferences: secureWebPreferences(join(__dirname, '../preload/index.js'))
      })
      // Closing the window keeps the server collecting: only Quit (tray, menu, OS) ends the app.
      window.on('close', (event) => {
        if (quitting) return
        event.preventDefault()
        window?.hide()
      })
      window.on('closed', () => (window = undefined))
      window.once('ready-to-show', () => window?.show())
      // ready-to-show never comes for a page that failed: show a page saying so instead.
      window.webContents.on('did-fail-load', (_event, errorCode, errorDescription, failed, isMainFrame) => {
        if (!isMainFrame || errorCode === LOAD_ABORTED || failed.startsWith('data:')) return
        failedUrl = failed
        load(loadFailurePage(PRODUCT, failed, errorDescription))
        window?.show()
      })
      load(url ?? homeUrl(origin))
      return
    }
    if (url) load(url)
    if (window.isMinimized()) window.restore()
    window.show()
    window.focus()
  }

  const notifier = new AlertNotifier({
    enabled: () => settings.notifications && !notificationsPaused,
    log: logWarning,
    origin: () => origin,
    open: (url) => showWindow(url)
  })

  const onServerMessage = (message: ServerToShellMessage) => {
    if (message.type === 'hosts') {
      leds = message.leds
      refreshTray()
    } else if (message.type === 'setup') {
      setupNeeded = message.needed
    } else if (message.type === 'alert') {
      notifier.notify(message.alert)
    } else if (message.type === 'notification') {
      notifier.notifyChannel(message.notification)
    }
  }

  const onSupervisorEvent = (event: SupervisorEvent) => {
    if (event.type === 'ready') {
      pinnedFingerprint = event.endpoint.tlsFingerprint
      const restarted = everReady
      everReady = true
      serverState = 'running'
      // A page loaded while the server was down shows an error: load it again.
      if (restarted && failedUrl) load(failedUrl)
      else if (restarted) window?.webContents.reload()
      failedUrl = undefined
    } else if (event.type === 'migrating') {
      serverState = 'migrating'
    } else if (event.type === 'gave-up') {
      serverState = 'stopped'
      if (!quitting) {
        void askAfterServerFailure(PRODUCT, event.error.message, logFile).then((answer) =>
          answer === 'retry' ? startServer(settings.port).then(() => undefined) : app.quit()
        )
      }
    } else {
      serverState = 'restarting'
    }
    refreshTray()
  }

  const supervisor = new ServerSupervisor({
    launch: utilityServerLauncher(join(__dirname, 'server.js'), serverLog),
    args: ['--host', settings.listenHost, '--data-dir', dataDir, ...(settings.tls ? ['--tls', 'self-signed'] : [])],
    onMessage: onServerMessage,
    onEvent: onSupervisorEvent
  })

  /** Starts the server, asking the user what to do when its port is taken or it fails; undefined: quit. */
  const startServer = async (port: number | undefined): Promise<ServerEndpoint | undefined> => {
    const endpoint = await startWithRecovery(port, {
      start: (p) => supervisor.start(p),
      // Quitting stops a server that is still starting: that is no failure to ask about.
      cancelled: () => quitting,
      suggestPort: (taken) => nextFreePort(taken, settings.listenHost),
      ask: {
        port: (taken, suggestion) => askForAnotherPort(PRODUCT, taken, suggestion),
        afterFailure: (reason) => askAfterServerFailure(PRODUCT, reason, logFile)
      },
      rememberPort: (chosen) => updateSettings({ port: chosen })
    })
    if (!endpoint) app.quit()
    else origin = consoleOrigin(endpoint.port, endpoint.tlsFingerprint !== undefined)
    return endpoint
  }

  const loginItem = startAtLogin(process.platform, app, {
    productName: PRODUCT,
    executable: process.env.APPIMAGE ?? process.execPath,
    hiddenFlag: HIDDEN_FLAG,
    autostartFile: autostartFile()
  })

  /** Stops the server cleanly (it finishes requests and closes the database), then quits. */
  const stopThenQuit = () => {
    if (quitting) return // already stopping
    quitting = true
    notifier.dispose()
    void supervisor.stop().finally(() => {
      stopped = true
      app.quit()
    })
  }

  app.on('second-instance', () => showWindow())
  app.on('activate', () => showWindow()) // macOS: the Dock icon was clicked
  app.on('window-all-closed', () => {
    // Stay in the tray: agents keep reporting while no window is open.
  })
  app.on('before-quit', (event) => {
    if (stopped) return
    event.preventDefault()
    stopThenQuit()
  })

  void app.whenReady().then(async () => {
    if (process.platform === 'win32') {
      app.setAppUserModelId(APP_ID) // needed for Windows notifications
      onWindowsSessionEnd(stopThenQuit)
    }
    enforceConsoleOrigin(() => origin)
    // The window trusts the server's own certificate, by the fingerprint the server announced, and no other.
    session.defaultSession.setCertificateVerifyProc(ownCertificateVerifier('127.0.0.1', () => pinnedFingerprint))
    serveDesktopApi(
      createDesktopApi({
        version: app.getVersion(),
        dataDir,
        openFolder: (path) => shell.openPath(path),
        startAtLogin: loginItem,
        settings: { get: () => settings, update: updateSettings }
      }),
      () => origin
    )
    const iconDir = app.isPackaged ? join(process.resourcesPath, 'tray') : join(app.getAppPath(), 'resources/tray')
    tray = new StatusTray(iconDir, PRODUCT, trayState(PRODUCT, serverState, leds), {
      open: () => showWindow(),
      setNotificationsPaused: (paused) => (notificationsPaused = paused),
      quit: () => app.quit()
    })
    if (!(await startServer(settings.port))) return
    // macOS login items take no arguments, but tell whether they opened the app.
    const atLogin = process.argv.includes(HIDDEN_FLAG) || (process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin)
    if (!atLogin) showWindow(setupNeeded ? setupUrl(origin) : homeUrl(origin))
  })
}
