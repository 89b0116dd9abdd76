// The `program` channel's settings (issue 13): the executable, its arguments and its timeout.
import { z } from 'zod'
import { int, list, text } from './args'

export const PROGRAM_TIMEOUT = { default: 30, min: 1, max: 600 }

/**
 * Absolute on the server's system: from the root, or (Windows) from a drive or a share. One rule for
 * both, as the console cannot know which system the server runs on; a path that does not exist there
 * fails when the program is run, with its own message.
 */
const ABSOLUTE_PATH = /^([\\/]|[A-Za-z]:[\\/])/

/** An argument as given (spaces kept), only NUL refused (execve cannot pass it). */
const argument = z.unknown().transform((v, ctx): string => {
  if (typeof v !== 'string') {
    ctx.addIssue({ code: 'custom', message: 'expected text' })
    return z.NEVER
  }
  if (v.includes('\u0000')) {
    ctx.addIssue({ code: 'custom', message: 'must not contain NUL' })
    return z.NEVER
  }
  if (v.length > 4096) {
    ctx.addIssue({ code: 'custom', message: 'longer than 4096 characters' })
    return z.NEVER
  }
  return v
})

export const programSettings = z.object({
  path: text(4096, (s) =>
    ABSOLUTE_PATH.test(s) ? undefined : 'expected the absolute path of an executable, such as /usr/local/bin/notify'
  ).required(),
  arg: list(argument, 64),
  /** Seconds before the program (and its process group) is killed. */
  timeout: int(PROGRAM_TIMEOUT.min, PROGRAM_TIMEOUT.max, 'a number of seconds').default(PROGRAM_TIMEOUT.default)
})

export type ProgramSettings = z.output<typeof programSettings>
