// An M/Monit rule's conditions as Overseer rules. M/Monit's rule is a list of rows (rulerow), each naming
// hosts, host groups, service names, service-group names, event states and event types, combined by the
// rule's `operator`; ours is one filter per dimension (hosts ∪ groups, one service-name glob, states,
// event types). Exact where the two agree: "any" rows become one rule each, several service names one
// rule each (one glob cannot list names); what only approximates is said in `notes`.
import { EventClassId } from '../../../shared/codes'
import { StateBit } from '../../domain/alert-rules'

/**
 * rule.operator, read as M/Monit's rule editor offers it ("match all / any of the conditions"): 1 is
 * "any", every other value "all" (the spec knows the column, not its codes; documented in
 * docs/migrating-from-mmonit.md).
 */
const OPERATOR_ANY = 1

/** M/Monit's event states (rulerowstate.eventstate, as event.state): 0 succeeded, 1 failed, 2 changed. */
const STATE_BITS: Record<number, number> = { 0: StateBit.Succeeded, 1: StateBit.Failed, 2: StateBit.Changed }
const EVERY_STATE = StateBit.Failed | StateBit.Changed | StateBit.Succeeded

/** One rulerow with its ids already Overseer's (hosts, groups) and its names resolved. */
export interface ConditionRow {
  hostIds: number[]
  groupIds: number[]
  /** Service names, with the members of the row's service groups. */
  services: string[]
  states: number[]
  /** Event type bits */
  events: number[]
  /** It names hosts or host groups that were not imported. */
  unknown?: boolean
}

/** The filters of one Overseer rule. */
export interface RuleFilter {
  /** What tells it from the M/Monit rule's other parts ('' when it is the only one). */
  label: string
  hostIds: number[]
  groupIds: number[]
  servicePattern: string
  states: number
  eventTypes: number
  heartbeat: boolean
  recovery: boolean
}

interface Condition {
  hostIds?: Set<number>
  groupIds?: Set<number>
  services?: Set<string>
  states?: number
  events?: number
}

/** The rules the conditions come to, and what does not carry over exactly. */
export function ruleFilters(rows: readonly ConditionRow[], operator: number): { filters: RuleFilter[]; notes: string[] } {
  const notes: string[] = []
  const any = operator === OPERATOR_ANY && rows.length > 1
  // A row naming only hosts or groups that were not imported matches nothing.
  const matchable = rows.filter((row) => !row.unknown || row.hostIds.length + row.groupIds.length > 0)
  if (matchable.length < rows.length && (!any || matchable.length === 0)) {
    notes.push('a condition names only hosts or host groups that were not imported: the rule could never match')
    return { filters: [], notes }
  }
  if (matchable.length < rows.length) notes.push('conditions naming only hosts or host groups that were not imported are left out')
  const conditions = matchable.map((row) => conditionOf(row, notes))
  const combined = any ? conditions : [all(conditions, notes)]
  const filters: RuleFilter[] = []
  combined.forEach((condition, i) => {
    if (condition === undefined) return
    const rowLabel = combined.length > 1 ? `condition ${i + 1}` : ''
    filters.push(...filtersOf(condition, rowLabel, notes))
  })
  return { filters, notes }
}

function conditionOf(row: ConditionRow, notes: string[]): Condition {
  const condition: Condition = {}
  if (row.hostIds.length > 0) condition.hostIds = new Set(row.hostIds)
  if (row.groupIds.length > 0) condition.groupIds = new Set(row.groupIds)
  if (row.services.length > 0) condition.services = new Set(row.services)
  if (row.states.length > 0) {
    condition.states = 0
    for (const state of row.states) {
      if (STATE_BITS[state] === undefined) notes.push(`event state ${state} is not one M/Monit is known to use: left out`)
      condition.states |= STATE_BITS[state] ?? 0
    }
  }
  if (row.events.length > 0) condition.events = row.events.reduce((bits, e) => bits | e, 0)
  return condition
}

/** Every row must hold: a dimension several rows name is their intersection. Undefined: nothing can match. */
function all(conditions: readonly Condition[], notes: string[]): Condition | undefined {
  const merged: Condition = {}
  for (const c of conditions) {
    if (c.hostIds) merged.hostIds = merged.hostIds ? intersect(merged.hostIds, c.hostIds) : c.hostIds
    if (c.services) merged.services = merged.services ? intersect(merged.services, c.services) : c.services
    if (c.states !== undefined) merged.states = merged.states === undefined ? c.states : merged.states & c.states
    if (c.events !== undefined) merged.events = merged.events === undefined ? c.events : merged.events & c.events
    if (c.groupIds) {
      // A host is in several groups: "in G1 and in G2" is no set of groups. The first row's groups are kept.
      if (merged.groupIds)
        notes.push('several host-group conditions that must all hold: only the first one is kept (the rule matches more)')
      merged.groupIds ??= c.groupIds
    }
  }
  if (merged.hostIds && merged.groupIds) {
    notes.push('hosts and host groups that must both hold: the host condition is kept, the group condition dropped (the rule matches more)')
    delete merged.groupIds
  }
  const empty = [merged.hostIds, merged.services].some((s) => s !== undefined && s.size === 0) || merged.states === 0 || merged.events === 0
  if (empty) {
    notes.push('its conditions can never all hold (no host, service, state or event type is common to them): nothing to import')
    return undefined
  }
  return merged
}

/** One rule per service name (one glob cannot list several); every service when none is named. */
function filtersOf(c: Condition, rowLabel: string, notes: string[]): RuleFilter[] {
  const services = c.services ? [...c.services].sort() : ['']
  const states = c.states ?? EVERY_STATE
  const eventTypes = c.events ?? 0
  return services.map((service) => {
    if (/[*?]/.test(service))
      notes.push(`service name "${service}" holds * or ?, which Overseer's pattern reads as wildcards (the rule matches more)`)
    const label = [rowLabel, services.length > 1 ? service : ''].filter((s) => s !== '').join(', ')
    return {
      label,
      hostIds: [...(c.hostIds ?? [])].sort((a, b) => a - b),
      groupIds: [...(c.groupIds ?? [])].sort((a, b) => a - b),
      servicePattern: service,
      states,
      eventTypes,
      // The host's own heartbeat: for rules about every service, when their event types let it in.
      heartbeat: service === '' && (eventTypes === 0 || (eventTypes & EventClassId.Heartbeat) !== 0),
      // M/Monit tells of a success when the rule takes successes; ours does that as a recovery.
      recovery: (states & StateBit.Succeeded) !== 0
    }
  })
}

function intersect<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): Set<T> {
  return new Set([...a].filter((v) => b.has(v)))
}
