// A real Monit 5.33 agent (1 s poll, event queue) reporting to the built server whose data folder is a
// small tmpfs that fills up: the 503 answers make the agent keep its events, delivered once space returns.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBuiltServer, type BuiltServer } from '../support/built-server'
import { startAgents, type AgentFleet, type RunningAgent } from '../support/monit-agents'
import { mountSmallDisk, type SmallDisk } from '../support/small-disk'
import { testEngine } from '../support/test-database'
import { waitFor } from '../support/wait'

let disk: SmallDisk | undefined
let server: BuiltServer | undefined
let fleet: AgentFleet | undefined
let db: Database.Database | undefined

// Mounting a tmpfs needs root: CI has it (and so fails loudly without it); a developer's machine may not.
// On PostgreSQL the data lives in its cluster, not in the data folder the tmpfs fills.
const canMount = testEngine === 'sqlite' && (process.getuid?.() === 0 || Boolean(process.env.CI))

beforeAll(async () => {
  if (!canMount) return
  disk = mountSmallDisk(16)
  server = await startBuiltServer({ dataDir: join(disk.dir, 'data'), args: ['--init-collector', 'agents:s3cret'] })
  db = new Database(join(server.dataDir, 'overseer.sqlite'), { readonly: true })
  fleet = await startAgents({ collectorUrl: `http://agents:s3cret@127.0.0.1:${server.port}/collector`, count: 1 })
}, 60_000)

afterAll(async () => {
  await fleet?.shutdown()
  db?.close()
  await server?.kill()
  disk?.unmount()
})

const sleeperEvents = (a: RunningAgent) =>
  db!
    .prepare(
      `SELECT e.state, e.message FROM event e JOIN host h ON h.id = e.host_id
   WHERE h.agent_id = ? AND e.service_name = 'sleeper' AND e.class = 512 ORDER BY e.id`
    )
    .all(a.id) as { state: number; message: string }[]
const queued = (a: RunningAgent) => readdirSync(join(a.dir, 'events')).length
const monitLog = (a: RunningAgent) => readFileSync(join(a.dir, 'monit.log'), 'utf8')
/** What the agent logs when a cycle's replay of its queue failed. */
const REPLAY_FAILED = 'M/Monit handler failed, retry scheduled for next cycle'

describe.skipIf(!canMount)('a real agent and a full disk', () => {
  it('keeps its events queued while the collector answers 503, and delivers them once space returns', async () => {
    const agent = fleet!.agents[0]
    // At start the sleeper does not exist yet: the agent reports it failed, then running.
    await waitFor('the start-up recovery of sleeper', () => sleeperEvents(agent).at(-1)?.state === 0, 15_000)
    const before = sleeperEvents(agent).length

    disk!.fill()
    fleet!.killSleeper(agent)
    await waitFor('the agent to queue its event', () => queued(agent) > 0, 10_000)
    // A few more cycles: each replay is answered 503 again, and the server stays up.
    await waitFor('two replays of the queue refused', () => monitLog(agent).split(REPLAY_FAILED).length - 1 >= 2, 15_000)
    expect(queued(agent)).toBeGreaterThan(0)
    expect(sleeperEvents(agent)).toHaveLength(before)
    expect(server!.child.exitCode).toBeNull()
    expect(monitLog(agent)).toContain('Adding event to the queue file')
    expect(server!.output()).not.toContain('POST /collector failed')

    disk!.free()
    const delivered = await waitFor(
      'the queued failure to be stored',
      () =>
        sleeperEvents(agent)
          .slice(before)
          .find((e) => e.state === 1),
      10_000
    )
    expect(delivered.message).toBe('process is not running')
    await waitFor('the agent queue to empty', () => queued(agent) === 0, 10_000)
    expect(server!.child.exitCode).toBeNull()
  }, 60_000)
})
