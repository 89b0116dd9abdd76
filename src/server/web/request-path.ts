// The path a request URL names, as a router should compare it: without the query string,
// percent-decoded, with repeated slashes and dot segments resolved. `//collector` and
// `/collector/../collector` both name /collector.
import { posix } from 'node:path'

/** The normal path, or undefined when the URL's percent-encoding is malformed. */
export function requestPath(url: string): string | undefined {
  const query = url.indexOf('?')
  const path = query === -1 ? url : url.slice(0, query)
  // Most URLs are normal already; the collector path is checked on every agent message.
  if (!/\/\/|\/\.|%/.test(path)) return path
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    return undefined
  }
  return posix.normalize(decoded)
}
