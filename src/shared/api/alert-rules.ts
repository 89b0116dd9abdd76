// An alert rule's typed fields as the server checks them (admin/alerts/rules/*), shared with the
// console's rule form, which checks them in the browser first.
import { z } from 'zod'

export const GROUP_WAIT_MAX_SEC = 86_400
export const REMINDER_MAX_MIN = 525_600
export const GROUP_WAIT_RANGE = `a number of seconds from 0 to ${GROUP_WAIT_MAX_SEC}`
export const REMINDER_RANGE = `a number of minutes from 0 (off) to ${REMINDER_MAX_MIN}`

export const ruleNameRule = z.string().trim().min(1, 'must not be empty').max(255, 'longer than 255 characters')
export const servicePatternRule = z.string().max(255, 'longer than 255 characters')

const wholeIn = (max: number, range: string) =>
  z
    .number({ message: `expected ${range}` })
    .int(`expected ${range}`)
    .min(0, `expected ${range}`)
    .max(max, `expected ${range}`)

/** The console's rule form: a name, at least one channel, and the numbers in range. */
export const ruleFormRules = z.object({
  name: ruleNameRule,
  channelid: z.array(z.number()).min(1, 'at least one channel is required'),
  servicepattern: servicePatternRule,
  groupwait: wholeIn(GROUP_WAIT_MAX_SEC, GROUP_WAIT_RANGE),
  reminder: wholeIn(REMINDER_MAX_MIN, REMINDER_RANGE)
})
