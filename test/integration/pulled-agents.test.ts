// Pulled agents (issue 30 §1) with real Monit 5.33 agents that only serve their httpd (no `set mmonit`),
// read by the built server every 2 s: hosts, services and statistics appear as for pushed agents; a
// failure and its recovery between two polls are events; an agent stopped is silent ("no report"), and
// started again it reports again; wrong credentials are the poll's error, and store nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PulledAgentList } from '../../src/shared/api/pulled-agents'
import { EventClassId, EventState } from '../../src/shared/codes'
import { loginAs, type ApiClient } from '../support/api-client'
import { removeDir, startBuiltServer, type BuiltServer } from '../support/built-server'
import { startAgents, type AgentFleet, type RunningAgent } from '../support/monit-agents'
import { plainDatabaseOf } from '../support/test-database'
import { waitFor } from '../support/wait'

const POLL_SEC = 2

let server: BuiltServer
let fleet: AgentFleet
let admin: ApiClient
let db: ReturnType<typeof plainDatabaseOf>

beforeAll(async () => {
  server = await startBuiltServer({ args: ['--init-admin', 'admin:adminsecret'] })
  db = plainDatabaseOf(server.dataDir)
  fleet = await startAgents({ count: 2, sleeperOnFailure: 'alert' })
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
  const token = await admin.csrfToken()
  for (const [i, agent] of fleet.agents.entries()) {
    const res = await admin.post(
      '/api/2/admin/pulled/create',
      { url: `http://127.0.0.1:${agent.httpdPort}`, username: 'admin', password: i === 0 ? agent.httpdPassword : 'wrong', poll: POLL_SEC },
      { CSRFToken: token }
    )
    expect(res.status, JSON.stringify(res.json)).toBe(200)
  }
}, 60_000)

afterAll(async () => {
  await fleet?.shutdown()
  db?.close()
  await server?.stop()
  removeDir(server.dataDir)
})

const hostOf = (a: RunningAgent) =>
  db.prepare('SELECT id, hostname, heartbeat, poll FROM host WHERE agent_id = ?').get(a.id) as
    { id: number; hostname: string; heartbeat: number; poll: number } | undefined
const eventsOf = (a: RunningAgent, service: string, cls: number) =>
  db
    .prepare(
      `SELECT e.state, e.message FROM event e JOIN host h ON h.id = e.host_id
   WHERE h.agent_id = ? AND e.service_name = ? AND e.class = ? ORDER BY e.id`
    )
    .all(a.id, service, cls) as { state: number; message: string }[]
const pulled = async () => ((await admin.get('/api/2/admin/pulled/list')).json as PulledAgentList).records

describe('pulled agents', () => {
  it('appear as hosts with their services and statistics, watched at the pull interval', async () => {
    const agent = fleet.agents[0]
    const host = await waitFor(`${agent.name} to be pulled`, () => hostOf(agent))
    expect(host).toMatchObject({ hostname: agent.name, heartbeat: 1, poll: POLL_SEC })
    const services = db
      .prepare('SELECT name FROM service WHERE host_id = ? ORDER BY name')
      .all(host.id)
      .map((r) => (r as { name: string }).name)
    expect(services).toEqual(expect.arrayContaining([agent.name, 'sleeper', 'ok1']))
    await waitFor(
      'statistics history',
      () => (db.prepare('SELECT COUNT(*) AS n FROM history_raw WHERE host_id = ?').get(host.id) as { n: number }).n >= 2
    )
    const listed = (await pulled()).find((p) => p.url === `http://127.0.0.1:${agent.httpdPort}`)!
    expect(listed).toMatchObject({ agentid: agent.id, hostid: host.id, hostname: agent.name, error: null, answeredat: expect.any(Number) })
    expect(JSON.stringify(await pulled())).not.toContain(agent.httpdPassword)
  })

  it('wrong credentials: the poll says why, and nothing is stored', async () => {
    const agent = fleet.agents[1]
    const listed = await waitFor('the failed poll', async () =>
      (await pulled()).find((p) => p.url.endsWith(`:${agent.httpdPort}`) && p.error)
    )
    expect(listed.error).toMatch(/401|credentials|password/i)
    expect(hostOf(agent)).toBeUndefined()
  })

  it('a failure between two polls is a failed event of its class, its end a recovery', async () => {
    const agent = fleet.agents[0]
    // With `if does not exist then alert`, Monit starts the sleeper only when asked.
    await fleet.startSleeper(agent)
    await waitFor('the sleeper running', () => fleet.sleeperPid(agent))
    // A poll sees it running (the baseline a failure is told against), then it is killed.
    await waitFor(
      'a poll with the sleeper running',
      () =>
        (
          db.prepare("SELECT status FROM service WHERE name = 'sleeper' AND host_id = ?").get(hostOf(agent)!.id) as
            { status: number } | undefined
        )?.status === 0,
      10_000
    )
    // The sleeper was not running at the first poll: its start was already a recovery ("Exists").
    const before = eventsOf(agent, 'sleeper', 512).length
    fleet.killSleeper(agent)
    const failed = await waitFor('the sleeper failing', () => eventsOf(agent, 'sleeper', 512).at(before), 15_000)
    expect(failed).toEqual({ state: EventState.Failed, message: 'Does not exist' })
    await fleet.startSleeper(agent)
    await waitFor('the sleeper back', () => eventsOf(agent, 'sleeper', 512).at(before + 1), 15_000)
    expect(eventsOf(agent, 'sleeper', 512).slice(before)).toEqual([
      { state: EventState.Failed, message: 'Does not exist' },
      { state: EventState.Succeeded, message: 'Exists' }
    ])
  }, 40_000)

  it('takes service actions where it is pulled from: its restart of the sleeper is seen at the next polls', async () => {
    const agent = fleet.agents[0]
    const hostId = hostOf(agent)!.id
    const pid = await waitFor('the sleeper running', () => fleet.sleeperPid(agent))
    const res = await admin.post(
      '/api/2/admin/hosts/action',
      { id: hostId, action: 'restart', service: 'sleeper' },
      { CSRFToken: await admin.csrfToken() }
    )
    expect(res.status, res.text).toBe(200)
    await waitFor(
      'the sleeper restarted',
      () => {
        const now = fleet.sleeperPid(agent)
        return now !== undefined && now !== pid
      },
      15_000
    )
  }, 30_000)

  it('an agent stopped is silent after its pull interval; started again, it reports again', async () => {
    const agent = fleet.agents[0]
    await fleet.stop(agent)
    await waitFor('the host silent', () => hostOf(agent)!.heartbeat === 0, 20_000)
    expect((await pulled()).find((p) => p.agentid === agent.id)!.error).not.toBeNull()
    await fleet.restart(agent)
    await waitFor('the host reporting again', () => hostOf(agent)!.heartbeat === 1, 20_000)
    expect(eventsOf(agent, 'Monit', EventClassId.Heartbeat).map((e) => e.state)).toEqual([EventState.Failed, EventState.Succeeded])
  }, 60_000)
})
