// When the chosen port is taken, the shell offers the next free one rather than asking the user to
// guess. Probes by listening briefly, on the same address the server will use.
import { createServer } from 'node:net'

export function isPortFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)))
  })
}

/** The first free port after `taken`, trying up to `attempts` ports; undefined when none is. */
export async function nextFreePort(taken: number, host: string, attempts = 20): Promise<number | undefined> {
  for (let port = taken + 1; port <= Math.min(65535, taken + attempts); port++) {
    if (await isPortFree(port, host)) return port
  }
  return undefined
}
