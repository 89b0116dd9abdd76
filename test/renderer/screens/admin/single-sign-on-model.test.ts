// The Single sign-on screen's logic (issue 30 §2): the mapping table's rows with their roles' names, the
// Add mapping form's checks (a group as admin/sso/groups/update takes it: trimmed, not empty, at most 255
// characters; not one mapped already; at least one role), the password login mode in words and the
// redirect URI the provider must register.
import { SSO_GROUP_MAX } from '../../../../src/shared/api/single-sign-on'
import { describe, expect, it } from 'vitest'
import type { Role } from '../../../../src/renderer/api/admin'
import {
  CALLBACK_PATH,
  emptyMappingFields,
  groupNameProblem,
  mappingProblems,
  mappingRows,
  newMapping,
  passwordLoginText,
  redirectUri,
  roleChoices,
  rolesProblem
} from '../../../../src/renderer/screens/admin/single-sign-on-model'

const role = (id: number, name: string, patch: Partial<Role> = {}): Role => ({
  id,
  name,
  description: '',
  admin: false,
  active: true,
  buildin: false,
  rolerows: [],
  members: { users: [] },
  ...patch
})

const ROLES = [
  role(1, 'Administrator', { admin: true, buildin: true }),
  role(2, 'Collector', { buildin: true }),
  role(5, 'operators'),
  role(7, 'auditors', { active: false })
]

describe('mappingRows', () => {
  it('names each role, groups and roles in name order', () => {
    const rows = mappingRows(
      [
        { group: 'ops', roleids: [5, 1] },
        { group: 'Admins', roleids: [1] },
        { group: 'auditing', roleids: [7] }
      ],
      ROLES
    )
    expect(rows.map((r) => r.group)).toEqual(['Admins', 'auditing', 'ops'])
    expect(rows[2].roles).toEqual([
      { id: 1, name: 'Administrator', known: true, active: true, admin: true },
      { id: 5, name: 'operators', known: true, active: true, admin: false }
    ])
    expect(rows[1].roles[0]).toMatchObject({ name: 'auditors', active: false })
  })

  it('shows a role it does not know (roles not loaded, or deleted meanwhile) by its id', () => {
    expect(mappingRows([{ group: 'ops', roleids: [5, 9] }], undefined)[0].roles).toEqual([
      { id: 5, name: 'role 5', known: false, active: true, admin: false },
      { id: 9, name: 'role 9', known: false, active: true, admin: false }
    ])
    expect(mappingRows([{ group: 'ops', roleids: [9] }], ROLES)[0].roles[0]).toMatchObject({ name: 'role 9', known: false })
  })

  it('leaves out a group that gives no role, and lists a role once', () => {
    expect(mappingRows([{ group: 'none', roleids: [] }], ROLES)).toEqual([])
    expect(mappingRows([{ group: 'ops', roleids: [5, 5] }], ROLES)[0].roles.map((r) => r.id)).toEqual([5])
  })

  it('keeps groups that differ only in case apart, in a stable order', () => {
    const rows = mappingRows(
      [
        { group: 'ops', roleids: [5] },
        { group: 'OPS', roleids: [1] }
      ],
      ROLES
    )
    expect(rows.map((r) => r.group)).toEqual(['OPS', 'ops'])
  })

  it('has no rows for an empty table', () => {
    expect(mappingRows([], ROLES)).toEqual([])
  })
})

describe('roleChoices', () => {
  it('offers every role by name, inactive ones marked, with its id as the value', () => {
    expect(roleChoices(ROLES)).toEqual([
      { value: '1', label: 'Administrator' },
      { value: '7', label: 'auditors (inactive)' },
      { value: '2', label: 'Collector' },
      { value: '5', label: 'operators' }
    ])
  })
})

describe('groupNameProblem', () => {
  it('takes a group name up to 255 characters, trimmed as the server trims it', () => {
    for (const group of [
      'ops',
      ' ops ',
      'CN=Ops,OU=Groups,DC=example,DC=com',
      '/monitoring/admins',
      'é'.repeat(255),
      `  ${'x'.repeat(255)}  `
    ])
      expect(groupNameProblem(group), group).toBeUndefined()
  })

  it('refuses an empty name, one too long and one mapped already', () => {
    expect(groupNameProblem('')).toMatch(/Enter a group/)
    expect(groupNameProblem('   ')).toMatch(/Enter a group/)
    expect(groupNameProblem('x'.repeat(SSO_GROUP_MAX + 1))).toBe('At most 255 characters')
    expect(groupNameProblem(' ops ', ['ops'])).toMatch(/^ops is mapped already/)
    // Claims are compared as they are: another case is another group.
    expect(groupNameProblem('Ops', ['ops'])).toBeUndefined()
  })
})

describe('mappingProblems', () => {
  it('wants a group and at least one role', () => {
    expect(mappingProblems(emptyMappingFields(), [])).toEqual({
      group: "Enter a group as the provider's groups claim names it",
      roleids: 'Pick at least one role'
    })
    expect(mappingProblems({ group: 'ops', roleids: ['5'] }, [])).toEqual({})
    expect(mappingProblems({ group: 'ops', roleids: ['5'] }, ['ops'])).toHaveProperty('group')
    expect(rolesProblem([])).toBe('Pick at least one role')
    expect(rolesProblem(['1'])).toBeUndefined()
  })
})

describe('newMapping', () => {
  it('sends the trimmed group and each role id once', () => {
    expect(newMapping({ group: '  ops ', roleids: ['7', '5', '7'] })).toEqual({ group: 'ops', roleIds: [5, 7] })
  })
})

describe('passwordLoginText', () => {
  it('says who keeps a password', () => {
    expect(passwordLoginText({ passwordlogin: 'on', breakglassuser: null })).toBe('Everyone can log in with a password')
    expect(passwordLoginText({ passwordlogin: 'break-glass', breakglassuser: 'rescue' })).toBe(
      'Browsers log in with single sign-on; only rescue keeps a password. Scripts and M/Monit API clients keep passwords and API tokens.'
    )
  })
})

describe('redirectUri', () => {
  it('is the console URL followed by the callback path', () => {
    expect(CALLBACK_PATH).toBe('/auth/oidc/callback')
    expect(redirectUri('https://mon.example.com')).toBe('https://mon.example.com/auth/oidc/callback')
    expect(redirectUri('https://mon.example.com', '/')).toBe('https://mon.example.com/auth/oidc/callback')
    expect(redirectUri('http://127.0.0.1:8080', '/index.csp')).toBe('http://127.0.0.1:8080/auth/oidc/callback')
    // Served under a proxy's prefix.
    expect(redirectUri('https://example.com', '/overseer/')).toBe('https://example.com/overseer/auth/oidc/callback')
    expect(redirectUri('https://example.com', '/overseer/index.html')).toBe('https://example.com/overseer/auth/oidc/callback')
  })
})
