// Electron adapter: Windows shutdown and log-off emit no before-quit; Electron reports them to windows
// only (query-session-end, then session-end). A hidden window that is never shown receives them
// whether or not the console window is open.
import { BrowserWindow } from 'electron'

export function onWindowsSessionEnd(listener: () => void): void {
  const receiver = new BrowserWindow({ show: false, skipTaskbar: true, webPreferences: { sandbox: true, contextIsolation: true } })
  // query-session-end first: it leaves the most time (the session may still be cancelled by another app).
  receiver.on('query-session-end', listener)
  receiver.on('session-end', listener)
}
