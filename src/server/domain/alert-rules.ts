// Which alert rules an event matches, and what keeps it from paging anyone (issue 13). Pure functions
// over plain data: the store reads the rows, the collector path compiles them once per configuration
// change and asks these for every event stored as a new fact.
import type { AlertState } from '../../shared/api/alerts'
import { EventClassId, EventState, HostStatus } from '../../shared/codes'
import { isFailure } from './event-rules'

/** Bits of a rule's `states` (alert_rule.states, the API's `state` 0|1|2 as 4|1|2). */
export const StateBit = { Failed: 1, Changed: 2, Succeeded: 4 } as const

/** A rule as matching needs it: sets and a RegExp built once, not per event. */
export interface CompiledRule {
  id: number
  /** The rule's hosts and the members of its groups; null: every host. */
  hostIds: ReadonlySet<number> | null
  /** null: every service */
  servicePattern: RegExp | null
  /** null: every type */
  serviceTypes: ReadonlySet<number> | null
  states: number
  /** Event class bits; 0: every class */
  eventTypes: number
  heartbeat: boolean
  recovery: boolean
  groupWaitSec: number
  /** Minutes between reminders; 0: none */
  reminderMin: number
  /** Unix seconds (server clock): failures older than the rule are reminded from then */
  createdAt: number
  /** Its enabled channels; never empty (a rule without one is not compiled). */
  channelIds: readonly number[]
}

/** A host, or one of its services (by service name id), muted until `until` (unix seconds). */
export interface Mute {
  serviceNameId: number | null
  until: number
}

export interface AlertConfig {
  rules: readonly CompiledRule[]
  /** Mutes by host id */
  mutes: ReadonlyMap<number, readonly Mute[]>
}

export const noAlertConfig: AlertConfig = { rules: [], mutes: new Map() }

/** The rows of one rule (alert_rule and its link tables), enabled or not. */
export interface RuleRows {
  id: number
  enabled: boolean
  servicePattern: string
  states: number
  eventTypes: number
  heartbeat: boolean
  recovery: boolean
  groupWaitSec: number
  reminderMin: number
  createdAt: number
  hostIds: readonly number[]
  groupIds: readonly number[]
  serviceTypes: readonly number[]
  /** Its channels that are enabled */
  channelIds: readonly number[]
}

/** The enabled rules that can send somewhere, ready to match. `groupMembers`: host ids by group id. */
export function compileRules(rows: readonly RuleRows[], groupMembers: ReadonlyMap<number, readonly number[]>): CompiledRule[] {
  return rows.filter((r) => r.enabled && r.channelIds.length > 0).map((r) => compileRule(r, groupMembers))
}

/** One rule ready to match, enabled or not (a rule being edited is matched before it is saved). */
export function compileRule(r: RuleRows, groupMembers: ReadonlyMap<number, readonly number[]>): CompiledRule {
  return {
    id: r.id,
    hostIds:
      r.hostIds.length + r.groupIds.length === 0 ? null : new Set([...r.hostIds, ...r.groupIds.flatMap((g) => groupMembers.get(g) ?? [])]),
    servicePattern: globToRegExp(r.servicePattern),
    serviceTypes: r.serviceTypes.length === 0 ? null : new Set(r.serviceTypes),
    states: r.states,
    eventTypes: r.eventTypes,
    heartbeat: r.heartbeat,
    recovery: r.recovery,
    groupWaitSec: r.groupWaitSec,
    reminderMin: r.reminderMin,
    createdAt: r.createdAt,
    channelIds: r.channelIds
  }
}

/** A service-name glob: `*` any run of characters, `?` one; the rest literal, whole name, case-sensitive as Monit's names. '' → null (every service). */
export function globToRegExp(glob: string): RegExp | null {
  if (glob === '' || glob === '*') return null
  const body = [...glob].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.|+()[\]{}]/g, '\\$&'))).join('')
  return new RegExp(`^${body}$`, 's')
}

/** An event stored as a new fact, as matching sees it. */
export interface AlertEvent {
  hostId: number
  service: string
  serviceNameId: number
  serviceType: number
  /** Event class bit */
  cls: number
  /** Monit's state: 0 succeeded, 1 failed, 2 changed, 4 changed-not (a success) */
  state: number
  /** The newest state of the same service and class before this event (agent time), if any. */
  priorState: number | undefined
  /** Agent time, unix seconds */
  timeSec: number
}

export type AlertKind = 'alert' | 'recovery'

export function alertState(state: number): AlertState {
  return isFailure(state) ? 'failed' : state === EventState.Changed ? 'changed' : 'succeeded'
}

/**
 * A success of a class whose newest state was a failure: it resolves that active error. Decided from
 * the event's own service state, not from whether the failure was alerted (that row may be pruned, or
 * the failure older than the rule): so a recovery may follow a failure that was muted at the time.
 */
export function isAlertRecovery(e: Pick<AlertEvent, 'state' | 'priorState'>): boolean {
  return alertState(e.state) === 'succeeded' && e.priorState !== undefined && isFailure(e.priorState)
}

/**
 * What the rule makes of the event, from the event alone (host, service, class, state); undefined: no match.
 * - Heartbeat events (the server's: class Heartbeat on service `Monit`, type System) are filtered like
 *   any other event, and only rules with `heartbeat` take them: a rule narrowed to some services (a
 *   pattern, types or classes that leave them out) is about those services, not the host's reporting.
 * - A success after a failure is a recovery, sent by rules with `recovery` that alert failures (states
 *   has failed): the rule that told of the failure tells it ended. Any other success is an alert for
 *   rules with the succeeded bit.
 */
export function matchRule(rule: CompiledRule, e: AlertEvent): AlertKind | undefined {
  if (rule.hostIds !== null && !rule.hostIds.has(e.hostId)) return undefined
  if (e.cls === EventClassId.Heartbeat && !rule.heartbeat) return undefined
  if (rule.servicePattern !== null && !rule.servicePattern.test(e.service)) return undefined
  if (rule.serviceTypes !== null && !rule.serviceTypes.has(e.serviceType)) return undefined
  if (rule.eventTypes !== 0 && (rule.eventTypes & e.cls) === 0) return undefined
  if (isAlertRecovery(e)) return rule.recovery && (rule.states & StateBit.Failed) !== 0 ? 'recovery' : undefined
  return (rule.states & stateBit(e.state)) !== 0 ? 'alert' : undefined
}

export interface RuleMatch {
  rule: CompiledRule
  kind: AlertKind
}

export function matchRules(rules: readonly CompiledRule[], e: AlertEvent): RuleMatch[] {
  const matches: RuleMatch[] = []
  for (const rule of rules) {
    const kind = matchRule(rule, e)
    if (kind !== undefined) matches.push({ rule, kind })
  }
  return matches
}

/** A time the server heard nothing from the host (unix seconds; end null while it lasts). */
export interface Silence {
  start: number
  end: number | null
}

export interface AlertHost {
  /** HostStatus */
  status: number
  /** The host's newest silence that began at or before the event's time, if any. */
  silence: Silence | undefined
}

export type Suppression = 'ignored' | 'muted' | 'inhibited'

/**
 * Why a matching event pages no one, if it does not:
 * - the host is ignored;
 * - a mute of the host, or of the event's service, lasts past the event's time;
 * - inhibition: the event happened while the host's heartbeat was dead (from the start of its silence to
 *   the message that ended it). Those are the events an agent replays from its queue after an outage,
 *   or sends in the message that revives it; the host's own "stopped reporting" / "reports again" stand
 *   for them. Heartbeat events themselves are never inhibited.
 */
export function suppression(mutes: ReadonlyMap<number, readonly Mute[]>, e: AlertEvent, host: AlertHost): Suppression | undefined {
  if (host.status === HostStatus.Ignored) return 'ignored'
  if (isMuted(mutes.get(e.hostId), e)) return 'muted'
  if (e.cls !== EventClassId.Heartbeat && host.silence !== undefined && within(host.silence, e.timeSec)) return 'inhibited'
  return undefined
}

/**
 * Whether failure `e`, active now, is one rule `rule` pages about now (issue 28: a rule sees what was
 * failing before it existed, or before its host entered its scope): the rule takes it as an alert, no mute
 * lasts past `now`, and its host reports (a silent host's services are inhibited; its heartbeat is not).
 * The caller leaves out ignored hosts.
 */
export function failureInScope(
  rule: CompiledRule,
  e: AlertEvent,
  mutes: ReadonlyMap<number, readonly Mute[]>,
  now: number,
  hostSilent: boolean
): boolean {
  if (matchRule(rule, e) !== 'alert') return false
  if (isMuted(mutes.get(e.hostId), { ...e, timeSec: now })) return false
  return !hostSilent || e.cls === EventClassId.Heartbeat
}

/**
 * When a failure no notification of the rule has told of yet is due for its first reminder: `reminderMin`
 * after the later of the rule's creation and the failure (never for a rule without reminders).
 */
export function untoldReminderDueAt(rule: Pick<CompiledRule, 'reminderMin' | 'createdAt'>, failureSec: number): number {
  return rule.reminderMin > 0 ? Math.max(rule.createdAt, failureSec) + rule.reminderMin * 60 : Infinity
}

function isMuted(mutes: readonly Mute[] | undefined, e: AlertEvent): boolean {
  return mutes !== undefined && mutes.some((m) => m.until > e.timeSec && (m.serviceNameId === null || m.serviceNameId === e.serviceNameId))
}

function within(s: Silence, sec: number): boolean {
  return s.start <= sec && (s.end === null || sec < s.end)
}

function stateBit(state: number): number {
  const s = alertState(state)
  return s === 'failed' ? StateBit.Failed : s === 'changed' ? StateBit.Changed : StateBit.Succeeded
}
