// A host's administration fields as the server checks them (admin/hosts/update), shared with the
// console's host form, which checks them in the browser first.
import { z } from 'zod'

export const hostNameRule = z.string().trim().min(1, 'must not be empty').max(255, 'longer than 255 characters')
/** A host name, IPv4 or IPv6 address; '' = use the address the agent reported. */
export const agentAddressRule = z
  .string()
  .trim()
  .max(255, 'longer than 255 characters')
  .regex(/^[A-Za-z0-9._:%-]*$/, 'expected a host name or an IP address')
export const isPortOut = (n: number) => n === -1 || (n >= 1 && n <= 65535)
export const PORT_OUT = 'expected -1 or a port from 1 to 65535'
export const isSkew = (n: number) => n >= 1 && n <= 1000
export const SKEW = 'expected a number of poll cycles from 1 to 1000'

/** The console's host form: every field a person types. */
export const hostFormRules = z.object({
  hostname: hostNameRule,
  description: z.string().max(1000, 'longer than 1000 characters'),
  ipaddrout: agentAddressRule,
  portout: z.number({ message: 'expected a number' }).int('expected a whole number').refine(isPortOut, PORT_OUT),
  skew: z.number({ message: 'expected a number' }).int('expected a whole number').refine(isSkew, SKEW),
  agentuser: z.string().max(255, 'longer than 255 characters'),
  agentpassword: z.string().max(255, 'longer than 255 characters')
})
