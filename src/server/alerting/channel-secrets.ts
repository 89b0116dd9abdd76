// A channel's settings at rest and in the API (issue 13): the fields its type lists in `secretFields`
// are sealed by the secret box, like the agents' passwords, and never leave the server again: the API
// says only whether each is set (write-only fields). The delivery job opens them to send.
import type { SecretBox } from '../auth/secret-box'
import type { ChannelType } from './channel'

export type Settings = Record<string, unknown>

/** The settings as stored: each secret that is set (a non-empty string) sealed. */
export function sealSecrets(type: ChannelType, settings: Settings, box: SecretBox): string {
  const sealed = { ...settings }
  for (const field of type.secretFields) {
    if (typeof sealed[field] === 'string') sealed[field] = box.seal(sealed[field])
  }
  return JSON.stringify(sealed)
}

/** The stored settings, secrets opened: what the type's send takes. */
export function openSettings(type: ChannelType, stored: string, box: SecretBox): Settings {
  const settings = JSON.parse(stored) as Settings
  for (const field of type.secretFields) {
    if (typeof settings[field] === 'string') settings[field] = box.open(settings[field])
  }
  return settings
}

/** What the API shows: the settings without their secrets, and which secrets are set. */
export function publicSettings(type: ChannelType, stored: string): { settings: Settings; secrets: Record<string, boolean> } {
  const settings = JSON.parse(stored) as Settings
  const secrets: Record<string, boolean> = {}
  for (const field of type.secretFields) {
    secrets[field] = typeof settings[field] === 'string' && settings[field] !== ''
    delete settings[field]
  }
  return { settings, secrets }
}
