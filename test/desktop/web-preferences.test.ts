import { describe, expect, it } from 'vitest'
import { secureWebPreferences } from '../../src/main/web-preferences'

describe('console window webPreferences', () => {
  it('isolates and sandboxes the page, with no Node anywhere and web security on', () => {
    expect(secureWebPreferences('/app/out/preload/index.js')).toEqual({
      preload: '/app/out/preload/index.js',
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
      safeDialogs: true,
      spellcheck: false
    })
  })
})
