// The console window's webPreferences: the renderer is a web page from the local server, so it gets
// no Node, an isolated and sandboxed preload, and nothing that loosens web security.
import type { WebPreferences } from 'electron'

export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    experimentalFeatures: false,
    // Dialog spam from a page (alert loops) can be stopped by the user.
    safeDialogs: true,
    spellcheck: false
  }
}
