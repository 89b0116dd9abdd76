// The range arguments shared by the uptime and analytics reports: `range` (map/id/range ids) and, for
// the custom range, `datefrom`/`dateto` in unix seconds, a whole number of minutes apart.
import { Range } from '../../shared/ranges'
import { customRangeProblem, isRange, resolveRange, type Span } from '../domain/uptime'
import { badArgument } from '../http/errors'
import { arg } from '../../shared/api/args'

export const rangeParams = {
  range: arg.int('a range id').refine(isRange, 'expected a range id 0 to 12').optional(),
  // Read only for the custom range: other ranges ignore them, whatever they hold.
  datefrom: arg.text(100).optional(),
  dateto: arg.text(100).optional()
}

export interface RangeParams {
  range?: number
  datefrom?: string
  dateto?: string
}

/** The range id (`fallback` when none is given) and its span; relative ranges end at the last whole minute. */
export function selectedRange(p: RangeParams, now: number, fallback: Range): { range: Range; span: Span } {
  const range = (p.range ?? fallback) as Range
  if (range !== Range.Custom) return { range, span: resolveRange(range, now) }
  const from = timestamp('datefrom', p.datefrom)
  const to = timestamp('dateto', p.dateto)
  const problem = customRangeProblem(from, to)
  if (problem) throw badArgument(problem.arg, `${problem.message}`)
  return { range, span: { from, to } }
}

function timestamp(name: string, value: string | undefined): number {
  if (value === undefined) throw badArgument(name, `is required`)
  if (!/^-?\d{1,15}$/.test(value.trim())) throw badArgument(name, `expected a unix timestamp`)
  return Number(value.trim())
}
