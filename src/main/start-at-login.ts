// "Start at login" on each OS, Electron-free (the shell passes Electron's app). Linux: an XDG autostart
// entry (Electron's login-item API does nothing there). Windows: a Run entry with --hidden, read back
// with the same path and args (Electron's docs: otherwise openAtLogin reads false). macOS: a login
// item, which takes no arguments (the shell asks wasOpenedAtLogin instead).
import type { App } from 'electron'
import { isAutostartEnabled, setAutostart } from './linux-autostart'

export interface StartAtLogin {
  get(): boolean
  set(enabled: boolean): void
}

export interface StartAtLoginTarget {
  productName: string
  /** The program the OS starts: the AppImage file itself when run from one (it mounts elsewhere each time). */
  executable: string
  /** Given to the program: start in the tray, without the window. */
  hiddenFlag: string
  /** Linux: where the autostart entry goes. */
  autostartFile: string
}

export function startAtLogin(
  platform: NodeJS.Platform,
  app: Pick<App, 'getLoginItemSettings' | 'setLoginItemSettings'>,
  target: StartAtLoginTarget
): StartAtLogin {
  if (platform === 'linux') {
    return {
      get: () => isAutostartEnabled(target.autostartFile),
      set: (enabled) => setAutostart(target.autostartFile, enabled, target.productName, [target.executable, target.hiddenFlag])
    }
  }
  const item = platform === 'win32' ? { path: target.executable, args: [target.hiddenFlag] } : {}
  return {
    get: () => app.getLoginItemSettings(item).openAtLogin,
    set: (enabled) => app.setLoginItemSettings({ openAtLogin: enabled, ...item })
  }
}
