// What makes a password unsafe (unsafepassword in admin/users/list): shorter than the minimum, the user's
// own name, or one a guesser tries first, M/Monit's and Monit's shipped defaults among them. Judged
// wherever the clear text passes (a password set, a login) and kept as a flag, never the text itself.
import { PASSWORD_MIN_LENGTH } from '../../shared/api/users'

// Lower case; the short ones (monit, admin, …) fall under the length rule already.
const GUESSED_FIRST = new Set([
  'swordfish', // M/Monit's admin
  'password',
  'password1',
  'passw0rd',
  'changeme',
  'administrator',
  '12345678',
  '123456789',
  '1234567890',
  'qwertyuiop'
])

export function isWeakPassword(password: string, uname: string): boolean {
  const lower = password.toLowerCase()
  return password.length < PASSWORD_MIN_LENGTH || GUESSED_FIRST.has(lower) || lower === uname.toLowerCase()
}
