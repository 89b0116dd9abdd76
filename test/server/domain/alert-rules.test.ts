import { describe, expect, it } from 'vitest'
import {
  alertState,
  compileRules,
  failureInScope,
  globToRegExp,
  matchRule,
  matchRules,
  suppression,
  untoldReminderDueAt,
  type AlertEvent,
  type CompiledRule,
  type Mute,
  type RuleRows
} from '../../../src/server/domain/alert-rules'

const NONEXIST = 512
const CONNECTION = 32
const HEARTBEAT = 1048576
const PROCESS = 3
const FILESYSTEM = 0

const rows = (r: Partial<RuleRows> = {}): RuleRows => ({
  id: 1,
  enabled: true,
  servicePattern: '',
  states: 7,
  eventTypes: 0,
  heartbeat: true,
  recovery: true,
  groupWaitSec: 30,
  reminderMin: 0,
  createdAt: 0,
  hostIds: [],
  groupIds: [],
  serviceTypes: [],
  channelIds: [10],
  ...r
})
const rule = (r: Partial<RuleRows> = {}, groups = new Map<number, number[]>()): CompiledRule => {
  const [compiled] = compileRules([rows(r)], groups)
  if (!compiled) throw new Error('the rule did not compile')
  return compiled
}
const event = (e: Partial<AlertEvent> = {}): AlertEvent => ({
  hostId: 7,
  service: 'nginx',
  serviceNameId: 70,
  serviceType: PROCESS,
  cls: NONEXIST,
  state: 1,
  priorState: 0,
  timeSec: 1000,
  ...e
})
const failure = event()
const recovery = event({ state: 0, priorState: 1 })
const heartbeatLost = event({ service: 'Monit', serviceNameId: 1, serviceType: 5, cls: HEARTBEAT, state: 1, priorState: undefined })
const heartbeatBack = { ...heartbeatLost, state: 0, priorState: 1 }

describe('alert rules: compiling', () => {
  it('keeps enabled rules that have an enabled channel, only', () => {
    const compiled = compileRules([rows({ id: 1 }), rows({ id: 2, enabled: false }), rows({ id: 3, channelIds: [] })], new Map())
    expect(compiled.map((r) => r.id)).toEqual([1])
  })

  it('expands host groups into their members, with the named hosts; neither means every host', () => {
    expect(
      rule(
        { hostIds: [1], groupIds: [5, 6] },
        new Map([
          [5, [2, 3]],
          [6, [4]]
        ])
      ).hostIds
    ).toEqual(new Set([1, 2, 3, 4]))
    expect(rule().hostIds).toBeNull()
    // A rule naming only an empty group matches no host, not every host.
    expect(rule({ groupIds: [9] }).hostIds).toEqual(new Set())
  })

  it('service-name globs: * and ? wildcards, everything else literal, the whole name', () => {
    expect(globToRegExp('')).toBeNull()
    expect(globToRegExp('*')).toBeNull()
    const g = globToRegExp('web-?.*log')!
    expect(g.test('web-1.access-log')).toBe(true)
    expect(g.test('web-12.log')).toBe(false)
    expect(g.test('web-1xlog')).toBe(false) // '.' is literal
    expect(g.test('my-web-1.log')).toBe(false) // anchored
    expect(globToRegExp('a+(b)')!.test('a+(b)')).toBe(true)
    expect(globToRegExp('Nginx')!.test('nginx')).toBe(false) // Monit's names are case-sensitive
  })
})

describe('alert rules: matching an event', () => {
  it("hosts: the rule's hosts and group members only", () => {
    const r = rule({ hostIds: [7] })
    expect(matchRule(r, failure)).toBe('alert')
    expect(matchRule(r, { ...failure, hostId: 8 })).toBeUndefined()
    expect(matchRule(rule({ groupIds: [3] }, new Map([[3, [8]]])), { ...failure, hostId: 8 })).toBe('alert')
  })

  it('service pattern, service types and event types', () => {
    expect(matchRule(rule({ servicePattern: 'ng*' }), failure)).toBe('alert')
    expect(matchRule(rule({ servicePattern: 'apache' }), failure)).toBeUndefined()
    expect(matchRule(rule({ serviceTypes: [PROCESS] }), failure)).toBe('alert')
    expect(matchRule(rule({ serviceTypes: [FILESYSTEM] }), failure)).toBeUndefined()
    expect(matchRule(rule({ eventTypes: NONEXIST | CONNECTION }), failure)).toBe('alert')
    expect(matchRule(rule({ eventTypes: CONNECTION }), failure)).toBeUndefined()
  })

  it('states: failed, changed and succeeded bits; changed-not (4) is a success', () => {
    const changed = event({ state: 2 })
    const succeeded = event({ state: 0, priorState: 0 })
    const changedNot = event({ state: 4, priorState: 2 })
    expect([failure, changed, succeeded, changedNot].map((e) => matchRule(rule({ states: 1 }), e))).toEqual([
      'alert',
      undefined,
      undefined,
      undefined
    ])
    expect([failure, changed, succeeded, changedNot].map((e) => matchRule(rule({ states: 2 }), e))).toEqual([
      undefined,
      'alert',
      undefined,
      undefined
    ])
    expect([failure, changed, succeeded, changedNot].map((e) => matchRule(rule({ states: 4 }), e))).toEqual([
      undefined,
      undefined,
      'alert',
      'alert'
    ])
    expect(alertState(4)).toBe('succeeded')
    expect(alertState(2)).toBe('changed')
  })

  it('a success after a failure is a recovery, sent by rules with recovery that alert failures', () => {
    expect(matchRule(rule(), recovery)).toBe('recovery')
    expect(matchRule(rule(), { ...recovery, state: 4 })).toBe('recovery')
    expect(matchRule(rule({ recovery: false }), recovery)).toBeUndefined()
    expect(matchRule(rule({ recovery: false, states: 7 }), recovery)).toBeUndefined()
    // A rule that never told of the failure does not tell of its end.
    expect(matchRule(rule({ states: 2 }), recovery)).toBeUndefined()
    // The other filters apply to the recovery as to the failure.
    expect(matchRule(rule({ servicePattern: 'apache' }), recovery)).toBeUndefined()
  })

  it('heartbeat events only for rules with heartbeat, filtered like any event of service Monit (type System, class Heartbeat)', () => {
    expect(matchRule(rule(), heartbeatLost)).toBe('alert')
    expect(matchRule(rule(), heartbeatBack)).toBe('recovery')
    expect(matchRule(rule({ heartbeat: false }), heartbeatLost)).toBeUndefined()
    expect(matchRule(rule({ recovery: false }), heartbeatBack)).toBeUndefined()
    expect(matchRule(rule({ hostIds: [8] }), heartbeatLost)).toBeUndefined()
    // A rule narrowed to some services is not about the host's reporting ...
    expect(matchRule(rule({ servicePattern: 'nginx' }), heartbeatLost)).toBeUndefined()
    expect(matchRule(rule({ serviceTypes: [PROCESS] }), heartbeatLost)).toBeUndefined()
    expect(matchRule(rule({ eventTypes: NONEXIST }), heartbeatLost)).toBeUndefined()
    expect(matchRule(rule({ states: 2 }), heartbeatLost)).toBeUndefined()
    // ... unless its filters take it in.
    expect(matchRule(rule({ servicePattern: 'Mon*', serviceTypes: [5], eventTypes: NONEXIST | HEARTBEAT, states: 1 }), heartbeatLost)).toBe(
      'alert'
    )
  })

  it('matchRules answers every matching rule with its kind', () => {
    const rules = compileRules(
      [rows({ id: 1 }), rows({ id: 2, servicePattern: 'x' }), rows({ id: 3, recovery: false, states: 5 })],
      new Map()
    )
    expect(matchRules(rules, failure).map((m) => [m.rule.id, m.kind])).toEqual([
      [1, 'alert'],
      [3, 'alert']
    ])
    expect(matchRules(rules, recovery).map((m) => [m.rule.id, m.kind])).toEqual([[1, 'recovery']])
  })
})

describe('alert rules: what pages no one', () => {
  const active = { status: 0, silence: undefined }
  const none = new Map<number, Mute[]>()

  it('nothing suppresses an event of an active, unmuted, reporting host', () => {
    expect(suppression(none, failure, active)).toBeUndefined()
    expect(suppression(none, failure, { status: 1, silence: undefined })).toBeUndefined() // inactive (stopped) still alerts
  })

  it('ignored hosts', () => {
    expect(suppression(none, failure, { status: 2, silence: undefined })).toBe('ignored')
    expect(suppression(none, heartbeatLost, { status: 2, silence: undefined })).toBe('ignored')
  })

  it('a host mute silences all its events until its end; a service mute that service only', () => {
    const host = new Map([[7, [{ serviceNameId: null, until: 1001 }]]])
    expect(suppression(host, failure, active)).toBe('muted')
    expect(suppression(host, heartbeatLost, active)).toBe('muted')
    expect(suppression(host, { ...failure, timeSec: 1001 }, active)).toBeUndefined() // ended
    expect(suppression(host, { ...failure, hostId: 8 }, active)).toBeUndefined() // another host
    const service = new Map([[7, [{ serviceNameId: 70, until: 2000 }]]])
    expect(suppression(service, failure, active)).toBe('muted')
    expect(suppression(service, recovery, active)).toBe('muted')
    expect(suppression(service, { ...failure, service: 'apache', serviceNameId: 71 }, active)).toBeUndefined()
  })

  it('inhibition: a service event from the time the host was silent, not the heartbeat events', () => {
    const silent = { status: 0, silence: { start: 900, end: null } }
    expect(suppression(none, failure, silent)).toBe('inhibited')
    expect(suppression(none, recovery, silent)).toBe('inhibited')
    expect(suppression(none, heartbeatLost, silent)).toBeUndefined()
    expect(suppression(none, heartbeatBack, silent)).toBeUndefined()
    // A silence that ended: events of its time (replayed from the agent's queue) are still inhibited, later ones not.
    const ended = { status: 0, silence: { start: 900, end: 1100 } }
    expect(suppression(none, failure, ended)).toBe('inhibited')
    expect(suppression(none, { ...failure, timeSec: 1100 }, ended)).toBeUndefined()
    expect(suppression(none, { ...failure, timeSec: 899 }, { status: 0, silence: undefined })).toBeUndefined()
  })
})

describe('failures already active (issue 28)', () => {
  const noMutes = new Map()
  it('are in the scope of a rule that alerts them, unless muted now or their host is silent', () => {
    const active = { ...failure, priorState: undefined }
    expect(failureInScope(rule(), active, noMutes, 5000, false)).toBe(true)
    expect(failureInScope(rule({ servicePattern: 'mysql' }), active, noMutes, 5000, false)).toBe(false)
    expect(failureInScope(rule({ states: 4 }), active, noMutes, 5000, false)).toBe(false)
    expect(failureInScope(rule({ hostIds: [8] }), active, noMutes, 5000, false)).toBe(false)
    // A mute counts at the time of asking, not at the failure's.
    expect(failureInScope(rule(), active, new Map([[7, [{ serviceNameId: 70, until: 6000 }]]]), 5000, false)).toBe(false)
    expect(failureInScope(rule(), active, new Map([[7, [{ serviceNameId: null, until: 4000 }]]]), 5000, false)).toBe(true)
    // A silent host: its heartbeat failure is in scope, its services' are not.
    expect(failureInScope(rule(), active, noMutes, 5000, true)).toBe(false)
    expect(failureInScope(rule(), heartbeatLost, noMutes, 5000, true)).toBe(true)
    expect(failureInScope(rule({ heartbeat: false }), heartbeatLost, noMutes, 5000, true)).toBe(false)
  })

  it('are first reminded a reminder period after the later of the rule and the failure', () => {
    expect(untoldReminderDueAt({ reminderMin: 5, createdAt: 10_000 }, 1000)).toBe(10_300)
    expect(untoldReminderDueAt({ reminderMin: 5, createdAt: 10_000 }, 20_000)).toBe(20_300)
    expect(untoldReminderDueAt({ reminderMin: 0, createdAt: 10_000 }, 1000)).toBe(Infinity)
  })
})
