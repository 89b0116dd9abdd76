// The audit log's URL search: user, action and text filters, the time range and the page.
import { Range } from '../../../shared/ranges'
import type { AuditSearch } from '../../api/audit'
import { optionalInt } from './search-params'

/** A filter as typed: trimmed, at most 255 characters, left out when empty. */
export const filterText = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 255) : undefined)

export function parseAuditSearch(s: Record<string, unknown>): AuditSearch {
  return {
    user: filterText(s.user),
    action: filterText(s.action),
    text: filterText(s.text),
    range: optionalInt(s.range, Range.Now, Range.Custom),
    from: optionalInt(s.from),
    to: optionalInt(s.to),
    page: optionalInt(s.page, 2)
  }
}
