// The shell's own settings, kept as JSON beside the database (the server's settings are its flags).
// A missing or damaged file means defaults: the app must always start.
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

export interface DesktopSettings {
  /** Native notifications for new error events and silent hosts. */
  notifications: boolean
  /**
   * The port the user picked when the server's was taken; it wins over the server's own choice (the
   * port stored from the console's Settings, else 8080). Undefined: let the server choose.
   */
  port?: number
  /**
   * The address the server listens on: every interface by default (agents on the LAN post to it);
   * 127.0.0.1 keeps it to this computer. The window always uses loopback.
   */
  listenHost: string
  /**
   * HTTPS with the server's own self-signed certificate (--tls self-signed), which the window trusts by
   * its fingerprint (own-certificate.ts); false: plain HTTP. On by default: agents and browsers on the
   * LAN send passwords to this machine.
   */
  tls: boolean
}

export const SETTINGS_FILE = 'desktop-settings.json'

export const defaultSettings: DesktopSettings = { notifications: true, listenHost: '0.0.0.0', tls: true }

const schema = z.object({
  notifications: z.boolean().catch(defaultSettings.notifications),
  port: z.number().int().min(1).max(65535).optional().catch(undefined),
  listenHost: z.union([z.ipv4(), z.ipv6()]).catch(defaultSettings.listenHost),
  // A settings file without it comes from an install whose agents post in plain HTTP: it stays HTTP until
  // the user turns TLS on. New installs (no file) start with HTTPS.
  tls: z.boolean().catch(false)
})

export interface LoadedSettings {
  settings: DesktopSettings
  /** Why the file was not used as is, if it was not. */
  problem?: string
}

export function loadSettings(dataDir: string): LoadedSettings {
  let text: string
  try {
    text = readFileSync(join(dataDir, SETTINGS_FILE), 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { settings: { ...defaultSettings } }
    return { settings: { ...defaultSettings }, problem: `cannot read ${SETTINGS_FILE}: ${(err as Error).message}` }
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { settings: { ...defaultSettings }, problem: `${SETTINGS_FILE} is not valid JSON; using defaults` }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { settings: { ...defaultSettings }, problem: `${SETTINGS_FILE} is not a JSON object; using defaults` }
  }
  // Each bad field falls back to its default on its own (catch), so one typo does not reset the rest.
  return { settings: schema.parse(json) }
}

/** Writes through a temporary file and a rename, so a crash never leaves half a file. */
export function saveSettings(dataDir: string, settings: DesktopSettings): void {
  const file = join(dataDir, SETTINGS_FILE)
  writeFileSync(`${file}.tmp`, `${JSON.stringify(settings, null, 2)}\n`)
  renameSync(`${file}.tmp`, file)
}
