// Issue 12: no event lost when real agents replay their event queue after a server outage. Ten Monit
// 5.33 agents (1 s poll) run a program check that fails one poll in five; the built server is stopped
// twice (SIGTERM, then SIGKILL) while they keep failing and recovering, and restarted on the same port
// and data directory. Every event an agent logged must then be stored exactly once, and the active
// errors must follow each service's newest event by agent time.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { EventState } from '../../src/shared/codes'
import { removeDir, startBuiltServer, type BuiltServer } from '../support/built-server'
import { startAgents, type AgentFleet, type RunningAgent } from '../support/monit-agents'
import { plainDatabaseOf } from '../support/test-database'
import { waitFor } from '../support/wait'

const AGENTS = 10
const OUTAGE_MS = 8_000
/** Event class of a program's exit status (agent protocol §4.6). */
const STATUS_CLASS = 2097152
const COLLECTOR_ARGS = ['--init-collector', 'agents:s3cret']
// The reproduction: a program check that fails one poll in five.
const FLAKY = `check program flaky with path "/bin/bash -c 'test $((RANDOM % 5)) -ne 0'"
    if status != 0 then alert
`

const dataDir = mkdtempSync(join(tmpdir(), 'overseer-replay-'))
let server: BuiltServer | undefined
let fleet: AgentFleet | undefined

afterAll(async () => {
  await fleet?.shutdown()
  await server?.stop()
  removeDir(dataDir)
})

interface LoggedEvent {
  sec: number
  state: number
}
interface StoredEvent {
  date: number
  state: number
  active: number
}
interface Span {
  start: number
  end: number | null
}

/** Down spans of a single-class service from its events in agent-time order: failure to recovery. */
function spansOf(events: StoredEvent[]): Span[] {
  const spans: Span[] = []
  for (const e of events) {
    const open = spans.at(-1)?.end === null
    if (e.state === EventState.Failed && !open) spans.push({ start: e.date, end: null })
    else if (e.state === EventState.Succeeded && open) spans.at(-1)!.end = e.date
  }
  return spans
}

/**
 * The flaky check's events from the agent's own log. Monit logs a failure on every failing cycle but
 * posts an event only when the state changes (agent protocol §3.3): the lines that change it are the events.
 */
function loggedEvents(agent: RunningAgent): LoggedEvent[] {
  const events: LoggedEvent[] = []
  const line = /^\[(\S+)([+-]\d\d)(\d\d)\] \w+\s*: 'flaky' status (failed|succeeded) /
  for (const text of readFileSync(join(agent.dir, 'monit.log'), 'utf8').split('\n')) {
    const m = line.exec(text)
    const state = m?.[4] === 'failed' ? EventState.Failed : EventState.Succeeded
    if (m && events.at(-1)?.state !== state) events.push({ sec: Date.parse(`${m[1]}${m[2]}:${m[3]}`) / 1000, state })
  }
  return events
}

/** Pairs logged and stored events in time order (same state, log time within 1 s of agent time). */
function compare(logged: LoggedEvent[], stored: StoredEvent[]): { missing: number; duplicated: number } {
  const used = new Set<number>()
  let missing = 0
  for (const l of logged) {
    const i = stored.findIndex((s, k) => !used.has(k) && s.state === l.state && Math.abs(s.date - l.sec) <= 1)
    if (i < 0) missing++
    else used.add(i)
  }
  return { missing, duplicated: stored.length - used.size }
}

function queueEmpty(agent: RunningAgent): boolean {
  const dir = join(agent.dir, 'events')
  return !existsSync(dir) || readdirSync(dir).length === 0
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

describe('an outage of the server while agents fail and recover', () => {
  it('loses no event, stores none twice, and leaves active errors matching the current state', async () => {
    server = await startBuiltServer({ dataDir, args: COLLECTOR_ARGS })
    const port = server.port
    fleet = await startAgents({ collectorUrl: `http://agents:s3cret@127.0.0.1:${port}/collector`, count: AGENTS, extraChecks: FLAKY })
    const agents = fleet.agents
    // Real time: a few 1 s cycles of failing and recovering before the first outage.
    await sleep(4_000)

    for (const stop of ['SIGTERM', 'SIGKILL'] as const) {
      if (stop === 'SIGTERM') await server.stop()
      else await server.kill()
      // Real time: the agents' cycles go on failing and recovering, their events queued.
      await sleep(OUTAGE_MS)
      expect(agents.some((a) => !queueEmpty(a))).toBe(true) // events did queue up meanwhile
      server = await startBuiltServer({ dataDir, args: [...COLLECTOR_ARGS, '--port', String(port)] })
      await waitFor('every queue drained', () => agents.every(queueEmpty), 30_000, 200)
    }
    // Stop the agents (the server is up, so their last events are delivered) to compare settled logs.
    await Promise.all(agents.map((a) => fleet!.stop(a)))

    const db = plainDatabaseOf(dataDir)
    try {
      const storedOf = (a: RunningAgent) =>
        db
          .prepare(
            `SELECT e.date, e.state, e.active FROM event e JOIN host h ON h.id = e.host_id
         WHERE h.agent_id = ? AND e.service_name = 'flaky' AND e.class = ? ORDER BY e.collected_usec`
          )
          .all(a.id, STATUS_CLASS) as StoredEvent[]
      const intervalsOf = (a: RunningAgent) =>
        db
          .prepare(
            `SELECT i.start, i."end" FROM state_interval i JOIN host h ON h.id = i.host_id JOIN service_name n ON n.id = i.service_name_id
         WHERE h.agent_id = ? AND n.name = 'flaky' ORDER BY i.start`
          )
          .all(a.id) as Span[]
      let logged = 0
      let missing = 0
      let duplicated = 0
      const currentOf = (a: RunningAgent) =>
        db
          .prepare(
            `SELECT s.state, (SELECT COUNT(*) FROM event e WHERE e.host_id = s.host_id AND e.service_name = s.service_name
           AND e.class = s.class AND e.active = 1) AS active
         FROM event_state s JOIN host h ON h.id = s.host_id WHERE h.agent_id = ? AND s.service_name = 'flaky' AND s.class = ?`
          )
          .get(a.id, STATUS_CLASS) as { state: number; active: number } | undefined
      let wrongIntervals = 0
      let wrongCurrent = 0
      for (const agent of agents) {
        const log = loggedEvents(agent)
        const stored = storedOf(agent)
        const diff = compare(log, stored)
        logged += log.length
        missing += diff.missing
        duplicated += diff.duplicated
        // Down time written as events arrived (out of order) equals down time read from them in order.
        if (JSON.stringify(intervalsOf(agent)) !== JSON.stringify(spansOf(stored))) wrongIntervals++
        // The agent's last state is the stored current state, with an active error exactly when it failed.
        const current = currentOf(agent)
        const last = log.at(-1)?.state
        // An agent whose check never failed (one in five polls fails, at random) logged nothing, and has no state stored.
        if (
          last === undefined
            ? current !== undefined
            : !current || current.state !== last || current.active > 0 !== (last === EventState.Failed)
        ) {
          wrongCurrent++
        }
      }
      // Every service and class: active errors exactly when its newest event (agent time) is a failure.
      const classes = db
        .prepare(
          `SELECT s.state,
           (SELECT e.state FROM event e WHERE e.host_id = s.host_id AND e.service_name = s.service_name AND e.class = s.class
            ORDER BY e.collected_usec DESC LIMIT 1) AS newest,
           (SELECT COUNT(*) FROM event e WHERE e.host_id = s.host_id AND e.service_name = s.service_name AND e.class = s.class
            AND e.active = 1) AS active
         FROM event_state s`
        )
        .all() as { state: number; newest: number; active: number }[]
      const wrongActive = classes.filter((r) => r.newest !== r.state || r.active > 0 !== (r.state === EventState.Failed)).length
      console.info(
        `event replay: ${logged} events logged by ${AGENTS} agents, ${missing} missing, ${duplicated} duplicated; agents whose ` +
          `stored current state or active error differs from their own: ${wrongCurrent}, with wrong down-time intervals: ${wrongIntervals}; ` +
          `service classes whose active errors contradict their newest event: ${wrongActive} of ${classes.length}`
      )
      // Enough to mean something: the check fails one poll in five at random, and a busy machine runs fewer polls.
      expect(logged).toBeGreaterThan(AGENTS * 3)
      expect(classes.length).toBeGreaterThan(AGENTS)
      expect({ missing, duplicated, wrongCurrent, wrongIntervals, wrongActive }).toEqual({
        missing: 0,
        duplicated: 0,
        wrongCurrent: 0,
        wrongIntervals: 0,
        wrongActive: 0
      })
    } finally {
      db.close()
    }
  }, 120_000)
})
