// Reads a source table page by page in key order, each page handed over before the next is read.
import type { MMonitSource, PageQuery, SourceRow } from '../../store/mmonit-source/source'

export type PageRequest = Omit<PageQuery, 'after' | 'limit'>

/** Calls `each` with every page of `query` (at most `batchRows` rows), in key order. */
export async function forEachPage(
  source: MMonitSource,
  query: PageRequest,
  batchRows: number,
  each: (rows: SourceRow[]) => void | Promise<void>
): Promise<void> {
  let after: PageQuery['after']
  for (;;) {
    const rows = await source.page({ ...query, after, limit: batchRows })
    if (rows.length === 0) return
    await each(rows)
    if (rows.length < batchRows) return
    const last = rows[rows.length - 1]
    after = query.key.map((column) => last[column])
  }
}

/** A column's value as a number (M/Monit keeps some numbers as text, `host.status` in schema 15). */
export function numberOf(value: SourceRow[string], fallback = 0): number {
  if (typeof value === 'number') return value
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value)
  return fallback
}

export function textOf(value: SourceRow[string]): string {
  return value === null ? '' : String(value)
}
