// The built server with three real Monit 5.33 agents (1 s poll) on loopback; assertions read the store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EventClassId } from '../../src/shared/codes'
import { removeDir, startBuiltServer, type BuiltServer } from '../support/built-server'
import { startAgents, type AgentFleet, type RunningAgent } from '../support/monit-agents'
import { plainDatabaseOf } from '../support/test-database'
import { waitFor } from '../support/wait'

let server: BuiltServer
let fleet: AgentFleet
let db: ReturnType<typeof plainDatabaseOf>

beforeAll(async () => {
  server = await startBuiltServer({ args: ['--init-collector', 'agents:s3cret'] })
  db = plainDatabaseOf(server.dataDir)
  fleet = await startAgents({ collectorUrl: `http://agents:s3cret@127.0.0.1:${server.port}/collector`, count: 3 })
}, 60_000)

afterAll(async () => {
  await fleet?.shutdown()
  db?.close()
  await server?.stop()
  removeDir(server.dataDir)
})

interface HostRow {
  id: number
  agent_id: string
  hostname: string
  heartbeat: number
  status: number
  incarnation: number
  last_modified: number
  poll: number
  port_in: number
}
const hostOf = (a: RunningAgent) => db.prepare('SELECT * FROM host WHERE agent_id = ?').get(a.id) as HostRow | undefined
const eventsOf = (a: RunningAgent, service: string, cls: number) =>
  db
    .prepare(
      `SELECT e.state, e.message, e.date FROM event e JOIN host h ON h.id = e.host_id
   WHERE h.agent_id = ? AND e.service_name = ? AND e.class = ? ORDER BY e.collected_usec`
    )
    .all(a.id, service, cls) as { state: number; message: string; date: number }[]

describe('real Monit agents', () => {
  it('register as one host each, keyed by agent id, with their call-back address', async () => {
    for (const agent of fleet.agents) {
      const host = await waitFor(`${agent.name} to register`, () => hostOf(agent))
      expect(host).toMatchObject({ hostname: agent.name, poll: 1, port_in: agent.httpdPort, heartbeat: 1, status: 0 })
    }
    expect(db.prepare('SELECT COUNT(*) AS n FROM host').get()).toEqual({ n: 3 })
  })

  it('heartbeat every poll cycle, with every configured service type', async () => {
    const agent = fleet.agents[0]
    const first = hostOf(agent)!.last_modified
    await waitFor('three more heartbeats', () => hostOf(agent)!.last_modified >= first + 3, 8000)
    const types = db
      .prepare('SELECT s.type FROM service s JOIN host h ON h.id = s.host_id WHERE h.agent_id = ? ORDER BY s.type')
      .all(agent.id)
      .map((r) => (r as { type: number }).type)
    expect(types).toEqual([2, 3, 5, 7]) // file, process, system, program
    await waitFor(
      'every service monitored',
      () =>
        (
          db.prepare('SELECT MIN(monitor) AS m FROM service s JOIN host h ON h.id = s.host_id WHERE h.agent_id = ?').get(agent.id) as {
            m: number
          }
        ).m === 1
    )
  })

  it('a stopped process raises an error event', async () => {
    const agent = fleet.agents[1]
    // At start the sleeper does not exist yet: agents report it failed, then running. Wait for that.
    await waitFor('the start-up recovery of sleeper', () => eventsOf(agent, 'sleeper', 512).at(-1)?.state === 0, 10_000)
    const before = eventsOf(agent, 'sleeper', 512).length
    fleet.killSleeper(agent)
    const failure = await waitFor(
      '"process is not running"',
      () =>
        eventsOf(agent, 'sleeper', 512)
          .slice(before)
          .find((e) => e.state === 1),
      10_000
    )
    expect(failure.message).toBe('process is not running')
  })

  it('an agent restart creates no duplicate host', async () => {
    const agent = fleet.agents[2]
    const before = hostOf(agent)!
    await fleet.restart(agent)
    await waitFor('the new incarnation', () => hostOf(agent)!.incarnation > before.incarnation, 10_000)
    expect(hostOf(agent)!.id).toBe(before.id)
    expect(db.prepare('SELECT COUNT(*) AS n FROM host').get()).toEqual({ n: 3 })
  })

  it('an orderly stop makes the host Inactive, not dead', async () => {
    const agent = fleet.agents[2]
    await fleet.stop(agent)
    await waitFor('Inactive', () => hostOf(agent)!.status === 1, 5000)
    expect(hostOf(agent)!.heartbeat).toBe(1)
  })

  it('a killed agent turns its heartbeat dead after skew × poll', async () => {
    const agent = fleet.agents[0]
    await fleet.kill(agent)
    await waitFor('heartbeat dead', () => hostOf(agent)!.heartbeat === 0, 10_000, 50)
    const lastReport = hostOf(agent)!.last_modified
    const lost = eventsOf(agent, 'Monit', EventClassId.Heartbeat)
    expect(lost.map((e) => e.state)).toEqual([1])
    // Not before skew 3 × poll 1 s without a report: the event is dated when the watchdog saw the silence.
    expect(lost[0].date - lastReport).toBeGreaterThanOrEqual(3)
    const interval = db
      .prepare('SELECT start, "end" FROM state_interval WHERE host_id = ? AND service_name_id IS NULL')
      .all(hostOf(agent)!.id)
    expect(interval).toEqual([{ start: lastReport + 1, end: null }])
  })
})
