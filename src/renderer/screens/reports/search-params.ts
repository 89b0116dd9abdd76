// Readers for values in the URL's search part: anything a person typed or an old link holds is either
// a valid value or left out, never an error.

export function optionalInt(value: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max ? n : undefined
}

export function intList(value: unknown): number[] | undefined {
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value]
  const ids = items.map((v) => optionalInt(v, 1)).filter((n): n is number => n !== undefined)
  return ids.length > 0 ? [...new Set(ids)] : undefined
}

export function oneOf<T extends string | number>(allowed: readonly T[], value: unknown): T | undefined {
  return allowed.find((a) => a === value)
}
