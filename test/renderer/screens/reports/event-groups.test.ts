import { describe, expect, it } from 'vitest'
import { groupRepeats } from '../../../../src/renderer/screens/reports/event-groups'

const event = (id: number, servicename: string, state = 1, message = 'process is not running', hostid = 1) =>
  ({ id, date: 1_800_000_000 - id * 60, hostid, servicename, state, eventtype: state, message, event: message })

describe('groupRepeats', () => {
  it('folds neighbouring events of one service with the same state and message into their first', () => {
    const groups = groupRepeats([event(1, 'nginx'), event(2, 'nginx'), event(3, 'nginx'), event(4, 'sshd')])
    expect(groups.map((g) => [g.first.id, g.rest.map((e) => e.id)])).toEqual([[1, [2, 3]], [4, []]])
  })

  it('keeps apart another host, state or message, and runs split by another event', () => {
    const groups = groupRepeats([
      event(1, 'nginx'), event(2, 'nginx', 1, 'process is not running', 2), event(3, 'nginx', 0, 'process is running'),
      event(4, 'nginx', 1, 'other'), event(5, 'sshd'), event(6, 'nginx', 1, 'other')
    ])
    expect(groups.map((g) => g.rest.length)).toEqual([0, 0, 0, 0, 0, 0])
  })

  it('groups the host screen\'s events, which carry the state as eventtype only', () => {
    const plain = (id: number) => ({ id, date: id, servicename: 'cron', eventtype: 2, event: 'checksum changed' })
    expect(groupRepeats([plain(1), plain(2)]).map((g) => g.rest.length)).toEqual([1])
  })
})
