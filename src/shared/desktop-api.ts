// The desktop shell's two contracts.
// 1. What it offers the console: one object, `window.overseerDesktop`, present only in the Electron
//    window (a browser on the LAN has none). Named methods only; the console feature-detects it.
// 2. What the server, a child process of the shell, tells it (sent by src/server/desktop-bridge.ts).

export interface OverseerDesktop {
  /** The installed application's version, e.g. "0.1.0". */
  appVersion(): Promise<string>
  /** Opens the data folder (database, logs, settings) in the OS file manager. */
  openDataFolder(): Promise<void>
  getStartAtLogin(): Promise<boolean>
  setStartAtLogin(enabled: boolean): Promise<void>
  /** Native notifications for new error events and silent hosts. */
  getNotificationsEnabled(): Promise<boolean>
  setNotificationsEnabled(enabled: boolean): Promise<void>
}

export const DESKTOP_API_KEY = 'overseerDesktop'

/** IPC channel of each method (preload → main). */
export const desktopChannels: { readonly [K in keyof OverseerDesktop]: string } = {
  appVersion: 'overseer:app-version',
  openDataFolder: 'overseer:open-data-folder',
  getStartAtLogin: 'overseer:get-start-at-login',
  setStartAtLogin: 'overseer:set-start-at-login',
  getNotificationsEnabled: 'overseer:get-notifications',
  setNotificationsEnabled: 'overseer:set-notifications'
}

/** Hosts per LED colour. */
export interface LedCounts {
  red: number
  orange: number
  green: number
  gray: number
}

/** A new error event: a failed service check, or (kind host-dead) a host whose agent went silent. */
export interface DesktopAlert {
  kind: 'error' | 'host-dead'
  eventId: number
  hostId: number
  hostname: string
  service: string
  eventClass: number
  message: string
  /** Unix seconds */
  date: number
}

/** A notification of the `desktop` alert channel (issue 13): its text rendered from the channel's templates. */
export interface DesktopNotification {
  /** Stable across retries (AlertNotification.id) */
  id: string
  title: string
  body: string
  /** The console page it is about: absolute, or a route relative to the console ("#/events/7") */
  link: string
}

/** Every message the server sends its parent. */
export type ServerToShellMessage =
  /** `tlsFingerprint`: the server speaks HTTPS with this certificate (SHA-256, hex with colons), the one the window trusts. */
  | { type: 'ready'; port: number; urls: string[]; tlsFingerprint?: string }
  /** Sent before a schema migration (and the backup before it), which may outlast the usual start-up time. */
  | { type: 'migrating'; fromVersion: number; toVersion: number }
  | { type: 'error'; code: 'EADDRINUSE'; port: number; message: string }
  | { type: 'hosts'; leds: LedCounts }
  | { type: 'setup'; needed: boolean }
  | { type: 'alert'; alert: DesktopAlert }
  | { type: 'notification'; notification: DesktopNotification }

/** The one message the shell sends the server: shut down cleanly. */
export const STOP_REQUEST = { type: 'stop' } as const

/** Exit status of the headless server when its port is taken (2: bad setting, 1: other failure). */
export const EXIT_PORT_IN_USE = 3

declare global {
  interface Window {
    overseerDesktop?: OverseerDesktop
  }
}
