// A stand-in for the `electron` module, for running the main process under plain Node: the parts of
// Electron 45's main-process API the app uses, held to electron.d.ts by the type-checker: each class
// implements a Pick<…> of the real one (method signatures), and emits its events through
// electronEvents<RealClass>() (listener arguments). Resolved as `electron` by register.ts, which runs
// the built app in a child process.
export { app } from './app'
export { BrowserWindow } from './browser-window'
export { dialog, session, shell } from './dialog-shell'
export { ipcMain } from './ipc-main'
export { Notification } from './notification'
export { Menu, nativeImage, Tray } from './tray'
export { utilityProcess } from './utility-process'
