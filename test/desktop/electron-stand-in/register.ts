// Preloaded (node --require) into the app process: makes require('electron') load the stand-in,
// plays the platform named by STANDIN_PLATFORM, reports every observation to the test and carries
// out its commands. Environment: STANDIN_USER_DATA, STANDIN_APP_PATH, STANDIN_VERSION, STANDIN_PLATFORM.
import Module from 'node:module'
import { join } from 'node:path'
import type { BrowserWindow as ElectronBrowserWindow, Tray as ElectronTray } from 'electron'
import { electronEvents, noModifierKeys, preventableEvent } from './app-events'
import { BrowserWindow } from './browser-window'
import { invoke } from './ipc-main'
import { observer } from './observations'
import type { Command, Report } from './protocol'
import { standIn } from './settings'
import { clickMenuItem, Tray } from './tray'

const STAND_IN = join(__dirname, 'index.ts')
const resolver = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string }
const resolveFilename = resolver._resolveFilename
resolver._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, request === 'electron' ? STAND_IN : request, ...rest)
}

const emitWindow = electronEvents<ElectronBrowserWindow>()
const emitTray = electronEvents<ElectronTray>()

const env = process.env
if (env.STANDIN_PLATFORM) Object.defineProperty(process, 'platform', { value: env.STANDIN_PLATFORM })
standIn.userData = env.STANDIN_USER_DATA ?? ''
standIn.appPath = env.STANDIN_APP_PATH ?? process.cwd()
standIn.version = env.STANDIN_VERSION ?? standIn.version

const report = (message: Report) => process.send?.(message)
observer.on('observed', (observation) => report({ type: 'observed', observation }))

process.on('message', (command: Command) => {
  switch (command.type) {
    case 'invoke':
      invoke(command.channel, command.frameUrl, command.args).then(
        (result) => report({ type: 'reply', id: command.id, result }),
        (err: Error) => report({ type: 'reply', id: command.id, error: err.message })
      )
      return
    case 'tray-click':
      emitTray(Tray.current!, 'click', noModifierKeys, { x: 0, y: 0, width: 16, height: 16 }, { x: 8, y: 8 })
      return
    case 'tray-menu':
      clickMenuItem(Tray.current!.menu!, command.label)
      return
    case 'end-session':
      endSession(command.killAfterMs)
      return
    case 'configure':
      Object.assign(standIn, command.settings)
  }
})

/** Windows asks every top-level window (hidden ones too), then ends the session and the process. */
function endSession(killAfterMs: number): void {
  const windows = BrowserWindow.getAllWindows()
  const query = preventableEvent()
  const reasons: Electron.WindowSessionEndEvent['reasons'] = ['shutdown']
  for (const window of windows) emitWindow(window, 'query-session-end', Object.assign(query, { reasons }))
  for (const window of windows) emitWindow(window, 'session-end', Object.assign(preventableEvent(), { reasons }))
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), killAfterMs)
}
