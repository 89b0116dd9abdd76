// The channel form's checks before anything is sent: the name, and the type's settings by the rules
// the server parses them with (src/shared/alert-channel-settings), every invalid field at once, each
// with its reason. What only the server knows (a name taken already) comes back from it.
import type { z } from 'zod'
import { CHANNEL_SETTINGS } from '../../../shared/alert-channel-settings'
import { ruleNameRule } from '../../../shared/api/alert-rules'
import { channelTypeForm, type ChannelTypeForm } from './channel-types'
import { settingsArguments, type FieldValues } from './channel-values'

/** The form's values; `settings` as the type's inputs hold them. */
export interface ChannelDraft {
  type: string
  name: string
  enabled: boolean
  subject: string
  body: string
  settings: FieldValues
}

/** A stored secret left empty stands for it: the server keeps the stored one, which it took before. */
const STORED_SECRET = 'stored'

/**
 * The settings as the server's reader hands them to the rules (api/alert-channel-settings.ts): the
 * last value of a single argument, the non-empty values of a repeatable one, and an empty secret absent
 * (or, when one is stored, the stored one).
 */
function settingsInput(form: ChannelTypeForm, values: FieldValues, storedSecrets: Readonly<Record<string, boolean>>) {
  const args = settingsArguments(form, values)
  const input: Record<string, unknown> = {}
  for (const field of form.fields) {
    const value = args[field.name]
    if (field.kind === 'secret') {
      if (value !== '') input[field.name] = value
      else if (storedSecrets[field.name]) input[field.name] = STORED_SECRET
    } else if (field.kind === 'lines' || field.kind === 'users') {
      input[field.name] = (value as string[]).filter((v) => v !== '')
    } else {
      input[field.name] = Array.isArray(value) ? value[value.length - 1] : value
    }
  }
  return input
}

/** The issue's text as the API words it (its argumentError). */
const reason = (issue: z.core.$ZodIssue, input: Record<string, unknown>, field: string) =>
  issue.code === 'invalid_type' && input[field] === undefined ? 'is required' : issue.message

/** Errors by the form's paths (name, settings.<argument>); none: the form may be sent. */
export function channelFormErrors(draft: ChannelDraft, storedSecrets: Readonly<Record<string, boolean>> = {}): Record<string, string> {
  const errors: Record<string, string> = {}
  // A channel's name has a rule's rule: the server's arg.required(255), in the same words.
  const name = ruleNameRule.safeParse(draft.name)
  if (!name.success) errors.name = name.error.issues[0].message
  const rules = CHANNEL_SETTINGS[draft.type]
  if (!rules) return errors
  const input = settingsInput(channelTypeForm(draft.type), draft.settings, storedSecrets)
  const parsed = rules.safeParse(input)
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = String(issue.path[0] ?? '')
    // A stored secret's own rule is the server's business: it took it before.
    if (input[field] === STORED_SECRET && storedSecrets[field]) continue
    errors[`settings.${field}`] ??= reason(issue, input, field)
  }
  return errors
}
