// Electron adapter: serves window.overseerDesktop's methods over IPC, to the console's own pages only.
import { ipcMain } from 'electron'
import { desktopChannels, type OverseerDesktop } from '../shared/desktop-api'
import { isSameOrigin } from './navigation-guard'

export function serveDesktopApi(api: OverseerDesktop, origin: () => string): void {
  for (const name of Object.keys(desktopChannels) as (keyof OverseerDesktop)[]) {
    ipcMain.handle(desktopChannels[name], (event, ...args: unknown[]) => {
      // A page that navigated elsewhere (or a frame of another origin) must not reach the shell.
      if (!isSameOrigin(event.senderFrame?.url, origin())) throw new Error('not allowed from this page')
      return (api[name] as (...a: unknown[]) => Promise<unknown>)(...args)
    })
  }
}
