// A channel's settings at rest and in the API (issue 13): the fields its type lists in `secretFields`
// are sealed by the secret box, like the agents' passwords, and never leave the server again: the API
// says only whether each is set (write-only fields). The values of its `secretHeaderFields` lines
// (a webhook's "Authorization: Bearer …") are sealed the same way; the API shows their names only.
// The delivery job opens them to send.
import { HIDDEN_HEADER_VALUE } from '../../shared/alert-channel-settings/webhook'
import type { SecretBox } from '../auth/secret-box'
import type { ChannelType } from './channel'

export type Settings = Record<string, unknown>

/** The settings as stored: each secret that is set (a non-empty string) sealed. */
export function sealSecrets(type: ChannelType, settings: Settings, box: SecretBox): string {
  const sealed = { ...settings }
  for (const field of type.secretFields) {
    if (typeof sealed[field] === 'string') sealed[field] = box.seal(sealed[field])
  }
  for (const field of type.secretHeaderFields ?? []) sealed[field] = mapHeaderValues(sealed[field], (value) => box.seal(value))
  return JSON.stringify(sealed)
}

/** The stored settings, secrets opened: what the type's send takes. */
export function openSettings(type: ChannelType, stored: string, box: SecretBox): Settings {
  const settings = JSON.parse(stored) as Settings
  for (const field of type.secretFields) {
    if (typeof settings[field] === 'string') settings[field] = box.open(settings[field])
  }
  // Values stored before they were secrets are plain: open() returns those as they are.
  for (const field of type.secretHeaderFields ?? []) settings[field] = mapHeaderValues(settings[field], (value) => box.open(value))
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
  for (const field of type.secretHeaderFields ?? []) settings[field] = mapHeaderValues(settings[field], () => HIDDEN_HEADER_VALUE)
  return { settings, secrets }
}

/**
 * The header lines with each stored value a hidden one stands for (an update sending back what the API
 * showed), matched by name and order among lines of that name; `missing` names a hidden one with none.
 */
export function keepHiddenHeaderValues(lines: readonly string[], stored: unknown): { lines: string[]; missing?: string } {
  const storedLines = Array.isArray(stored) ? (stored as string[]) : []
  const seen = new Map<string, number>()
  let missing: string | undefined
  const kept = lines.map((line) => {
    const { name, value } = splitHeader(line)
    if (value !== HIDDEN_HEADER_VALUE) return line
    const key = name.toLowerCase()
    const nth = seen.get(key) ?? 0
    seen.set(key, nth + 1)
    const match = storedLines.filter((l) => splitHeader(l).name.toLowerCase() === key)[nth]
    if (match === undefined) missing ??= name
    return match ?? line
  })
  return { lines: kept, missing }
}

function mapHeaderValues(lines: unknown, map: (value: string) => string): unknown {
  if (!Array.isArray(lines)) return lines
  return (lines as string[]).map((line) => {
    const { name, value } = splitHeader(line)
    return `${name}: ${map(value)}`
  })
}

/** Stored lines were checked by the settings schema: "Name: value", trimmed. */
function splitHeader(line: string): { name: string; value: string } {
  const colon = line.indexOf(':')
  return colon < 0 ? { name: line.trim(), value: '' } : { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() }
}
