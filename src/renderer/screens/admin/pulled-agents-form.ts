// The "Add agent" form's fields checked before they are sent, as the server checks them
// (api/admin-pulled-agents.ts): an http:// or https:// address with nothing but a host and a port, the
// credentials in their own fields, a poll interval within PULL_POLL_LIMITS. The server stays the judge:
// what only it knows (an agent added already) comes back as its 400 or 409.
import {
  DEFAULT_PULL_POLL_SEC,
  MONIT_HTTPD_PORT,
  PULL_POLL_LIMITS,
  PULLED_CREDENTIAL_MAX,
  PULLED_URL_MAX
} from '../../../shared/api/pulled-agents'
import type { NewPulledAgent } from '../../api/pulled-agents'

export interface PulledAgentFields {
  url: string
  username: string
  password: string
  /** What the number input holds: '' when emptied. */
  poll: number | string
}

export type PulledAgentProblems = Partial<Record<keyof PulledAgentFields, string>>

export const emptyPulledAgentFields = (): PulledAgentFields => ({ url: '', username: '', password: '', poll: DEFAULT_PULL_POLL_SEC })

export const URL_EXAMPLE = `https://10.0.0.5:${MONIT_HTTPD_PORT}`

/** Why the URL is not an agent's httpd address, or undefined when it is one. */
export function urlProblem(text: string): string | undefined {
  const typed = text.trim()
  if (typed === '') return `Enter the agent's httpd address, e.g. ${URL_EXAMPLE}`
  if (typed.length > PULLED_URL_MAX) return `At most ${PULLED_URL_MAX} characters`
  // Without a scheme, "10.0.0.5:2812" reads as no URL and "agent:2812" as the scheme "agent:".
  if (!/^https?:\/\//i.test(typed)) return `Start with http:// or https://, e.g. ${URL_EXAMPLE}`
  let url: URL
  try {
    url = new URL(typed)
  } catch {
    return `Not a URL: an http:// or https:// address of the agent, e.g. ${URL_EXAMPLE}`
  }
  if (url.username || url.password) return 'Give the credentials as user and password below, not in the URL'
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) return "Only the agent's address, without a path"
  if (url.hostname === '') return "Name the agent's host"
  return undefined
}

/** Why the poll interval is not one the server takes, or undefined. */
export function pollProblem(poll: number | string): string | undefined {
  const seconds = typeof poll === 'number' ? poll : poll.trim() === '' ? NaN : Number(poll)
  if (!Number.isInteger(seconds) || seconds < PULL_POLL_LIMITS.min || seconds > PULL_POLL_LIMITS.max)
    return `Whole seconds from ${PULL_POLL_LIMITS.min} to ${PULL_POLL_LIMITS.max}`
  return undefined
}

/** Every field's problem (mantine's form shows each under its field); empty when the form can be sent. */
export function pulledAgentProblems(f: PulledAgentFields): PulledAgentProblems {
  const problems: PulledAgentProblems = {}
  const url = urlProblem(f.url)
  if (url) problems.url = url
  if (f.username.length > PULLED_CREDENTIAL_MAX) problems.username = `At most ${PULLED_CREDENTIAL_MAX} characters`
  if (f.password.length > PULLED_CREDENTIAL_MAX) problems.password = `At most ${PULLED_CREDENTIAL_MAX} characters`
  const poll = pollProblem(f.poll)
  if (poll) problems.poll = poll
  return problems
}

/** The arguments of admin/pulled/create from fields without problems. */
export function newPulledAgent(f: PulledAgentFields): NewPulledAgent {
  return { url: f.url.trim(), username: f.username.trim(), password: f.password, poll: Number(f.poll) }
}
