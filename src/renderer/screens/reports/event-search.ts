// The events screen's URL search: each filter, the sort and the page, read back leniently.
import { eventClasses } from '../../../shared/codes'
import { Range } from '../../../shared/ranges'
import { EVENT_PAGE_SIZES, eventSortKeys, type EventSearch } from '../../api/events'
import { intList, oneOf, optionalInt } from './search-params'

const classBits = eventClasses.map((c) => c.id)

export function parseEventSearch(raw: Record<string, unknown>): EventSearch {
  const search: EventSearch = {
    host: intList(raw.host),
    group: optionalInt(raw.group, 1),
    service: optionalInt(raw.service, 1),
    servicegroup: optionalInt(raw.servicegroup, 1),
    servicetype: optionalInt(raw.servicetype, 0, 8),
    eventtype: oneOf(classBits, optionalInt(raw.eventtype, 1)),
    state: oneOf([0, 1, 2], optionalInt(raw.state)),
    active: oneOf([1, 2], optionalInt(raw.active)),
    range: optionalInt(raw.range, Range.Now, Range.Custom),
    from: optionalInt(raw.from),
    to: optionalInt(raw.to),
    sort: oneOf(eventSortKeys, raw.sort),
    dir: oneOf(['asc', 'desc'] as const, raw.dir),
    page: optionalInt(raw.page, 2),
    size: oneOf(EVENT_PAGE_SIZES, optionalInt(raw.size))
  }
  // Absent filters stay out of the URL.
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined)) as EventSearch
}

/** True when any filter (not the sort or paging) is set. */
export function hasEventFilter(search: EventSearch): boolean {
  const { sort: _sort, dir: _dir, page: _page, size: _size, ...filters } = search
  return Object.keys(filters).length > 0
}
