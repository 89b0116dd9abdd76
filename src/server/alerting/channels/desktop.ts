// The desktop app's native notifications as a channel (issue 13): fed by the same rules as every other
// channel, handed to the Electron shell that started this server (desktop-bridge.ts).
import { desktopSettings } from '../../../shared/alert-channel-settings'
import type { ChannelType } from '../channel'

export const desktopChannel: ChannelType<Record<string, never>> = {
  type: 'desktop',
  settings: desktopSettings,
  secretFields: [],
  async send(_settings, notification, message, context) {
    if (!context.desktop)
      return { ok: false, error: 'no desktop app is connected: this server was not started by the Overseer desktop app' }
    if (!context.desktop(notification, message)) return { ok: false, error: 'the desktop app did not take the notification' }
    return { ok: true }
  }
}
