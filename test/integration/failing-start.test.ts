// A real Monit 5.33 agent with a process whose start program exits 0 but never starts it (issue 28):
// Monit keeps the service initializing and reports "failed to start" (Exec) with status bits Nonexist |
// Exec. Every status read of the console must show it failing, red, named, with since when.
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventListEntry } from '../../src/shared/api/events'
import type { HostOverviewEntry, ServiceOverviewEntry } from '../../src/shared/api/overview'
import type { HostGetAnswer, HostStatusEntry, HostSummary } from '../../src/shared/api/status'
import { Led, MonitorState } from '../../src/shared/codes'
import type { ApiClient } from '../support/api-client'
import { COLLECTOR, startTestServer, type TestServer } from '../support/in-process-server'
import { startAgents, type AgentFleet } from '../support/monit-agents'
import { waitFor } from '../support/wait'

// The pid file never exists; Monit waits a second for the process after each start, then gives up.
const NEVER = `check process never with pidfile ${join(tmpdir(), `overseer-never-${randomBytes(6).toString('hex')}.pid`)}
    start program = "/bin/true" with timeout 1 seconds
`

let server: TestServer
let fleet: AgentFleet
let admin: ApiClient

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.loginAsAdmin()
  fleet = await startAgents({
    collectorUrl: `http://${COLLECTOR.user}:${COLLECTOR.password}@127.0.0.1:${server.port}/collector`,
    count: 1,
    namePrefix: 'starter',
    extraChecks: NEVER
  })
}, 30_000)

afterAll(async () => {
  await fleet?.shutdown()
  await server?.stopAndClean()
})

async function json<T>(path: string, params: Record<string, string | number> = {}): Promise<T> {
  const res = await admin.get(path, params)
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`)
  return res.json as T
}

describe('a service whose start program succeeds but whose process never appears', () => {
  it('is failing, not "Initializing", on every status read while Monit keeps it initializing', async () => {
    const hostId = await waitFor('the agent to register', async () => {
      const list = await json<{ records: HostStatusEntry[] }>('/api/2/status/hosts/list')
      return list.records.find((h) => h.hostname === fleet.agents[0].name)?.id
    })
    const failedToStart = await waitFor(
      '"failed to start"',
      async () => {
        const events = await json<{ records: EventListEntry[] }>('/api/2/reports/events/list', { hostid: hostId })
        return events.records.find((e) => e.servicename === 'never' && e.message.startsWith('failed to start'))
      },
      15_000
    )
    expect(failedToStart).toMatchObject({ state: 1, active: 1 })

    // Monit sets the service back to initializing each time it tries the start again.
    const never = await waitFor(
      'a report of it initializing',
      async () => {
        const get = await json<HostGetAnswer>('/api/2/status/hosts/get', { id: hostId })
        return get.records.host.services.find((s) => s.name === 'never' && (s.monitorstate & MonitorState.Initializing) !== 0)
      },
      15_000
    )
    expect(never).toMatchObject({ led: Led.Red, status: 'Does not exist | Execution failed' })

    const overview = await json<{ records: HostOverviewEntry[] }>('/api/2/status/hosts/overview', { hostid: hostId })
    const host = overview.records[0]
    expect(host.failing).toContainEqual({ name: 'never', led: Led.Red, since: expect.any(Number) })
    expect(host.failing.find((s) => s.name === 'never')!.since).toBeLessThanOrEqual(failedToStart.date)
    expect(host.led).not.toBe(Led.Green)
    expect(host.since).toEqual(expect.any(Number))

    const services = await json<{ records: ServiceOverviewEntry[] }>('/api/2/status/services/list', { servicepattern: 'never' })
    expect(services.records).toEqual([expect.objectContaining({ name: 'never', led: Led.Red, since: expect.any(Number) })])

    const summary = await json<HostSummary>('/api/2/status/hosts/summary')
    expect(summary.status.find((c) => c.label === 'ok')!.data).toBe(0)
  })
})
