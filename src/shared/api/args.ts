// Argument types of the M/Monit API ("number is a decimal integer, boolean is true or false"), as zod
// schemas of the text a query string or form sends, and the argument shapes several endpoints share.
import { z } from 'zod'

export const arg = {
  int: (label = 'a whole number') =>
    z
      .string()
      .trim()
      .regex(/^-?\d{1,15}$/, `expected ${label}`)
      .transform(Number),
  bool: () =>
    z
      .string()
      .trim()
      .toLowerCase()
      .refine((s) => ['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'].includes(s), 'expected true or false')
      .transform((s) => ['true', '1', 'on', 'yes'].includes(s)),
  text: (max = 1000) => z.string().max(max, `longer than ${max} characters`),
  required: (max = 1000) => z.string().trim().min(1, 'must not be empty').max(max, `longer than ${max} characters`),
  oneOf: <T extends string>(values: readonly [T, ...T[]]) => z.enum(values, { message: `expected one of ${values.join(', ')}` }),
  /** A whole number from `min` to `max`; `label` says what is expected, e.g. '0, 1 or 2' (and describes it in the OpenAPI document). */
  intIn: (min: number, max: number, label: string) =>
    arg
      .int()
      .refine((n) => n >= min && n <= max, `expected ${label}`)
      .describe(`A whole number: ${label}`),
  /** A whole number among `values`: integer enums such as event states. */
  intOf: (values: readonly number[], label: string) =>
    arg
      .int()
      .refine((n) => values.includes(n), `expected ${label}`)
      .describe(`A whole number: ${label}`)
}

/** A list of ids, the argument repeated (hostid=1&hostid=2). */
export const idList = z.array(arg.int()).optional()

/** The api/2 paging arguments (PAGE-1..4): results (the page size) and startindex (the offset). */
export const pageArgs = {
  results: arg
    .int()
    .refine((n) => n >= 1, 'expected a page size of 1 or more')
    .optional(),
  startindex: arg
    .int()
    .refine((n) => n >= 0, 'expected an offset of 0 or more')
    .optional()
}

/** Paging plus the order: unknown `sort` or `dir` values fall back to the default order instead of failing (PAGE-4). */
export const sortedPageArgs = {
  ...pageArgs,
  sort: arg.text().optional(),
  dir: arg.text().optional()
}
