// The one object the console may use from the desktop shell: named methods only, never ipcRenderer.
import { contextBridge } from 'electron'

contextBridge.exposeInMainWorld('desktop', { platform: process.platform })
