// A report range id (map/id/range) as answers carry it.
import { z } from 'zod'
import { rangeNames, type Range } from '../ranges'

const ids = Object.keys(rangeNames).map(Number)

/** One of map/id/range's ids, typed as the Range it is. */
export const rangeId = z
  .number()
  .int()
  .min(Math.min(...ids))
  .max(Math.max(...ids)) as unknown as z.ZodType<Range>
