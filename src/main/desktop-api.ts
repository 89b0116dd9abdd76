// The methods behind window.overseerDesktop, Electron-free: the shell passes what touches the OS.
// Arguments come from a web page, so each is checked here, whatever the preload already did.
import type { OverseerDesktop } from '../shared/desktop-api'
import type { DesktopSettings } from './desktop-settings'

export interface DesktopApiDeps {
  version: string
  dataDir: string
  /** Opens a folder in the OS file manager; resolves to an error text, empty when it worked (Electron's shell.openPath). */
  openFolder(path: string): Promise<string>
  startAtLogin: { get(): boolean; set(enabled: boolean): void }
  settings: { get(): DesktopSettings; update(change: Partial<DesktopSettings>): void }
}

function requireBoolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be true or false`)
  return value
}

export function createDesktopApi(deps: DesktopApiDeps): OverseerDesktop {
  return {
    appVersion: async () => deps.version,
    openDataFolder: async () => {
      const problem = await deps.openFolder(deps.dataDir)
      if (problem) throw new Error(`cannot open ${deps.dataDir}: ${problem}`)
    },
    getStartAtLogin: async () => deps.startAtLogin.get(),
    setStartAtLogin: async (enabled: unknown) => deps.startAtLogin.set(requireBoolean(enabled, 'enabled')),
    getNotificationsEnabled: async () => deps.settings.get().notifications,
    setNotificationsEnabled: async (enabled: unknown) => deps.settings.update({ notifications: requireBoolean(enabled, 'enabled') })
  }
}
