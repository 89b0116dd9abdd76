import { describe, expect, it } from 'vitest'
import { declaredOf, keepDeclared, memberOptions } from '../../../../src/renderer/screens/admin/group-members'

const hosts = [
  { id: 1, name: 'alpha' },
  { id: 2, name: 'bravo' },
  { id: 3, name: 'charlie' }
]

describe("the group editor's member picker", () => {
  it('labels a member its agent declares "declared by the agent", and no other host', () => {
    expect(memberOptions(hosts, [3])).toEqual([
      { value: '1', label: 'alpha' },
      { value: '2', label: 'bravo' },
      { value: '3', label: 'charlie (declared by the agent)' }
    ])
  })

  it('keeps the declared members whatever is picked (the server would refuse their removal)', () => {
    expect(keepDeclared([1], [3])).toEqual([1, 3])
    expect(keepDeclared([3, 1], [3])).toEqual([3, 1])
    expect(keepDeclared([], [])).toEqual([])
  })

  it("finds a group's declared members in admin/groups/declared, none before it answered", () => {
    const declared = [
      { id: 7, hosts: [3] },
      { id: 9, hosts: [1, 2] }
    ]
    expect(declaredOf(9, declared)).toEqual([1, 2])
    expect(declaredOf(8, declared)).toEqual([])
    expect(declaredOf(9, undefined)).toEqual([])
  })
})
