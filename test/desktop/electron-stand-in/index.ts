// A stand-in for the `electron` module, for running the main process under plain Node: the parts of
// Electron 45's main-process API the app uses, each declared against electron.d.ts (Pick<…> of the
// real classes) so the type-checker holds them to Electron's documented signatures. Resolved as
// `electron` by register.ts (the app in a child process) or by vitest's alias (in-process tests).
export { app } from './app'
export { BrowserWindow } from './browser-window'
export { dialog, session, shell } from './dialog-shell'
export { ipcMain } from './ipc-main'
export { Notification } from './notification'
export { Menu, nativeImage, Tray } from './tray'
export { utilityProcess } from './utility-process'
