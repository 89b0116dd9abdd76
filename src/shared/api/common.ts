// Answer shapes many endpoints share: the empty answer of a write, a new row's id, the api/2 paging
// fields (PAGE-1..4), the green/red outcome of a test, and the error every failure answers with.
import { z } from 'zod'

/** {} : a write that has nothing to tell. */
export const emptyAnswer = z.object({})

/** {"id": 7}: the row a create made. */
export const createdAnswer = z.object({ id: z.number().int() })
export type Created = z.infer<typeof createdAnswer>

export const sortDirs = ['asc', 'desc'] as const
/** The `dir` of every paged list. */
export const sortDir = z.enum(sortDirs)
export type SortDir = z.infer<typeof sortDir>

/** The api/2 paging fields of a page of `record`. */
export function pageOf<T extends z.ZodType>(record: T) {
  return z.object({
    records: z.array(record),
    recordsReturned: z.number().int(),
    pageSize: z.number().int(),
    totalRecords: z.number().int(),
    startIndex: z.number().int()
  })
}

/** A page in an order: `sort` and `dir` as applied (after any fallback to the default order). */
export function sortedPageOf<T extends z.ZodType>(record: T) {
  return pageOf(record).extend({ sort: z.string(), dir: sortDir })
}

/** admin/hosts/test and admin/alerts/channels/test: a failed test is still a 200, red with the reason. */
export const testOutcome = z.object({ status: z.enum(['green', 'red']), description: z.string() })
export type TestOutcome = z.infer<typeof testOutcome>

/** Every failure (compat ERR-1); `argument` (ours) names the request argument at fault. */
export const errorAnswer = z.object({
  error: z.string(),
  argument: z.string().optional()
})
export type ErrorAnswer = z.infer<typeof errorAnswer>
