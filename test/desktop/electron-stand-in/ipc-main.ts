// `ipcMain.handle`, and invoke() for the test: a renderer frame at `frameUrl` calling a channel, as
// the preload's ipcRenderer.invoke does.
import type { IpcMain, IpcMainInvokeEvent } from 'electron'

type Handler = Parameters<IpcMain['handle']>[1]
const handlers = new Map<string, Handler>()

export const ipcMain: Pick<IpcMain, 'handle'> = {
  handle: (channel, listener) => {
    if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    handlers.set(channel, listener)
  }
}

export async function invoke(channel: string, frameUrl: string, args: unknown[]): Promise<unknown> {
  const handler = handlers.get(channel)
  if (!handler) throw new Error(`No handler registered for '${channel}'`)
  return handler({ senderFrame: { url: frameUrl } } as IpcMainInvokeEvent, ...args)
}
