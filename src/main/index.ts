// Electron shell (thin): runs the headless server in a utility process and shows its console.
// Issue 7 adds supervision with backoff, tray, notifications and the navigation guard.
import { join } from 'node:path'
import { app, BrowserWindow, utilityProcess } from 'electron'

function startServer(): Promise<number> {
  const child = utilityProcess.fork(join(__dirname, 'server.js'), ['--host', '0.0.0.0', '--data-dir', app.getPath('userData')])
  app.on('before-quit', () => child.kill())
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with code ${code}`)))
    child.on('message', (m: { type?: string; port?: number }) => {
      if (m.type === 'ready' && m.port) resolve(m.port)
    })
  })
}

async function openWindow(port: number): Promise<void> {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    webPreferences: { preload: join(__dirname, '../preload/index.js'), contextIsolation: true, sandbox: true, nodeIntegration: false }
  })
  await win.loadURL(`http://127.0.0.1:${port}/`)
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.whenReady().then(startServer).then(openWindow).catch((err: Error) => {
    console.error(err.message)
    app.quit()
  })
}
