// unsafepassword's rule: short, the user's own name, or a default everyone tries.
import { describe, expect, it } from 'vitest'
import { isWeakPassword } from '../../../src/server/auth/weak-passwords'

describe('isWeakPassword', () => {
  it.each([
    ['shorter than 8 characters', 'Tr0ub4!', 'alice'],
    ["M/Monit's and Monit's defaults", 'swordfish', 'admin'],
    ['the defaults in another case', 'SwordFish', 'admin'],
    ['monit/monit (short as well)', 'monit', 'monit'],
    ['a well-known one', 'password1', 'alice'],
    ["the user's own name", 'Administrator2', 'administrator2']
  ])('%s: weak', (_, password, uname) => {
    expect(isWeakPassword(password, uname)).toBe(true)
  })

  it('8 characters and none of those: not weak', () => {
    expect(isWeakPassword('Tr0ub4!x', 'alice')).toBe(false)
    expect(isWeakPassword('correct horse battery staple', 'alice')).toBe(false)
  })
})
