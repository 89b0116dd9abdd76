// The console's user form, like first-run setup: the password twice, the full name optional.
import { describe, expect, it } from 'vitest'
import { userFormRules } from '../../src/shared/api/users'

const user = { uname: 'ann', fullname: '', email: '', password: 'pw-ann-123', confirm: 'pw-ann-123', roleid: [2] }
const problems = (creating: boolean, values: typeof user) =>
  userFormRules(creating)
    .safeParse(values)
    .error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? []

describe('userFormRules', () => {
  it('takes a new user without a full name once the password is typed twice alike', () => {
    expect(problems(true, user)).toEqual([])
  })

  it('refuses two different passwords, on the repeated field, also beside other problems', () => {
    expect(problems(true, { ...user, confirm: 'pw-ann-124' })).toEqual(['confirm: the two passwords differ'])
    expect(problems(true, { ...user, confirm: 'pw-ann-124', roleid: [] })).toEqual([
      'roleid: choose at least one role',
      'confirm: the two passwords differ'
    ])
    expect(problems(false, { ...user, password: '', confirm: 'pw-ann-124' })).toEqual(['confirm: the two passwords differ'])
  })

  it('keeps an edited user’s password when both are left empty, and still needs one for a new user', () => {
    expect(problems(false, { ...user, password: '', confirm: '' })).toEqual([])
    expect(problems(true, { ...user, password: '', confirm: '' })).toEqual([
      'password: must not be empty',
      'password: must be at least 8 characters'
    ])
  })
})
