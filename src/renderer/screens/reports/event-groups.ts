// Repeated events of one service read as one: a run of neighbouring events (in the list's order) of the
// same host and service with the same state and message is a group, shown as its first event and a count.

export interface Groupable {
  id: number
  date: number
  hostid?: number
  servicename: string
  state?: number
  eventtype: number
  message?: string
  event: string
}

export interface EventGroup<E> {
  first: E
  /** The group's other events, in the list's order. */
  rest: E[]
}

const sameKind = (a: Groupable, b: Groupable) => a.hostid === b.hostid && a.servicename === b.servicename &&
  (a.state ?? a.eventtype) === (b.state ?? b.eventtype) && (a.message ?? a.event) === (b.message ?? b.event)

export function groupRepeats<E extends Groupable>(events: readonly E[]): EventGroup<E>[] {
  const groups: EventGroup<E>[] = []
  for (const e of events) {
    const last = groups[groups.length - 1]
    if (last && sameKind(last.first, e)) last.rest.push(e)
    else groups.push({ first: e, rest: [] })
  }
  return groups
}
