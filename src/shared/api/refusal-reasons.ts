// Why the collector refused an agent or a message (issue 28), as plain constants: the server's log and
// /metrics, and the console without zod on its first load, say the same.

/** Refusals of the agent itself: cleared once one of its messages is stored. */
export const loginRefusals = [
  'no_credentials',
  'unknown_user',
  'wrong_password',
  'no_collector_permission',
  'host_not_permitted',
  'locked_out'
] as const
/** Refusals of one message: the agent's next ones may be stored, and this one is lost all the same, so they stay until dismissed. */
export const messageRefusals = ['too_large', 'malformed'] as const
export const refusalReasons = [...loginRefusals, ...messageRefusals] as const
export type RefusalReason = (typeof refusalReasons)[number]

/** The cause as a short label. */
export const refusalLabel: Record<RefusalReason, string> = {
  no_credentials: 'No credentials',
  unknown_user: 'Unknown user',
  wrong_password: 'Wrong password',
  no_collector_permission: 'No collector permission',
  host_not_permitted: 'Host not permitted',
  locked_out: 'Locked out',
  too_large: 'Message too large',
  malformed: 'Malformed message'
}

/** The likely cause in words, after its label, and what to do about it. */
export const refusalCause: Record<RefusalReason, string> = {
  no_credentials: 'add USER:PASSWORD@ to its set mmonit URL',
  unknown_user: 'no user of this name exists on this server',
  wrong_password: "the password in its set mmonit URL is not this user's",
  no_collector_permission: 'give the user a role that may collect',
  host_not_permitted: "the user may not report for this host: add the host to one of its roles' host groups",
  locked_out: 'after repeated failed logins; it is let in again once its password is right and the lock ends',
  too_large: "larger than this server accepts: the server's log names the limit it passed",
  malformed: "not a valid Monit message: the server's log says what was wrong"
}
