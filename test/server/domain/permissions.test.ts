import { describe, expect, it } from 'vitest'
import { Permission } from '../../../src/shared/codes'
import { holdsAnywhere, mayCollect, mayOnHost, mayOpenSession, principalOf } from '../../../src/server/domain/permissions'

const user = { id: 7, uname: 'ann' }
const row = (permission: number, hostIds: number[] = [], groupIds: number[] = [], groupHostIds: number[] = []) => ({
  permission,
  hostIds,
  groupIds,
  groupHostIds
})

describe('permissions', () => {
  it('a row without hosts or groups applies to every host, including unregistered ones', () => {
    const p = principalOf(user, [{ admin: false, active: true, rows: [row(Permission.Collector)] }])
    expect(mayCollect(p, undefined)).toBe(true)
    expect(mayCollect(p, 42)).toBe(true)
    expect(mayOnHost(p, 42, Permission.View)).toBe(false)
  })

  it('grants bits per host, directly and through host groups', () => {
    const p = principalOf(user, [
      { admin: false, active: true, rows: [row(Permission.View, [1]), row(Permission.View | Permission.ServiceActions, [], [9], [2, 3])] }
    ])
    expect(mayOnHost(p, 1, Permission.View)).toBe(true)
    expect(mayOnHost(p, 1, Permission.ServiceActions)).toBe(false)
    expect(mayOnHost(p, 3, Permission.ServiceActions)).toBe(true)
    expect(mayOnHost(p, 4, Permission.View)).toBe(false)
    expect(mayCollect(p, undefined)).toBe(false)
  })

  it('a row naming an empty host group grants nothing (not every host)', () => {
    const p = principalOf(user, [{ admin: false, active: true, rows: [row(Permission.Collector, [], [9], [])] }])
    expect(holdsAnywhere(p, Permission.Collector)).toBe(false)
  })

  it('a disabled role grants nothing; an admin role grants everything', () => {
    expect(holdsAnywhere(principalOf(user, [{ admin: true, active: false, rows: [row(7)] }]), Permission.View)).toBe(false)
    const admin = principalOf(user, [{ admin: true, active: true, rows: [] }])
    expect(admin.admin).toBe(true)
    expect(mayOnHost(admin, 99, Permission.ServiceActions)).toBe(true)
  })

  it('a user whose only permission is collector may not open a session; anyone holding more, or nothing, may', () => {
    const of = (admin: boolean, ...rows: ReturnType<typeof row>[]) => mayOpenSession(principalOf(user, [{ admin, active: true, rows }]))
    expect(of(false, row(Permission.Collector))).toBe(false)
    expect(of(false, row(Permission.Collector, [1]), row(Permission.Collector, [], [9], [2]))).toBe(false)
    expect(of(false, row(Permission.Collector), row(Permission.View, [1]))).toBe(true)
    expect(of(false, row(Permission.Collector | Permission.View))).toBe(true)
    expect(of(true, row(Permission.Collector))).toBe(true)
    expect(of(false)).toBe(true)
    expect(of(false, row(Permission.View, [1]))).toBe(true)
  })
})
