// The one object the console may use from the desktop shell: named methods only, never ipcRenderer.
import { contextBridge, ipcRenderer } from 'electron'
import { DESKTOP_API_KEY, desktopChannels, type OverseerDesktop } from '../shared/desktop-api'

const overseerDesktop: OverseerDesktop = {
  appVersion: () => ipcRenderer.invoke(desktopChannels.appVersion),
  openDataFolder: () => ipcRenderer.invoke(desktopChannels.openDataFolder),
  getStartAtLogin: () => ipcRenderer.invoke(desktopChannels.getStartAtLogin),
  setStartAtLogin: (enabled) => ipcRenderer.invoke(desktopChannels.setStartAtLogin, enabled),
  getNotificationsEnabled: () => ipcRenderer.invoke(desktopChannels.getNotificationsEnabled),
  setNotificationsEnabled: (enabled) => ipcRenderer.invoke(desktopChannels.setNotificationsEnabled, enabled)
}

contextBridge.exposeInMainWorld(DESKTOP_API_KEY, overseerDesktop)
