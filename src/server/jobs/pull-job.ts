// Reads the pulled agents' status from their httpd (issue 30 §1) and stores it through the collector's own
// ingest, as if the agent had pushed it: each agent every poll interval, at most MAX_IN_FLIGHT at a time,
// under the job lease (one instance pulls for the cluster). Between two answers, the status bits a
// service gained or lost are the events it implies (domain/pulled-events.ts). An agent that does not
// answer sends nothing, so the heartbeat rules see it silent after its poll interval (the messages carry
// the pull interval as their poll). An HTTPS agent's certificate is pinned at its first answer, and any
// other is refused before the credentials are sent (agent/client.ts); at its first answer its host's
// call-back (service actions) is set to where and as it is pulled, pinned. An agent whose host receives pushed
// reports now is no longer pulled: the pushes carry its events, and two sources would tell them twice.
import { Permission } from '../../shared/codes'
import { AgentClient } from '../agent/client'
import type { SecretBox } from '../auth/secret-box'
import type { CollectOutcome, CollectRequest } from '../collector/collect-message'
import { baselineOf, impliedEvents } from '../domain/pulled-events'
import type { Principal } from '../domain/permissions'
import { RepeatedFailureLog } from '../log'
import { parseMonitMessage } from '../monit/parse-message'
import { pulledMessage } from '../monit/pulled-message'
import type { PulledAgentRepository, PulledAgentRow } from '../store/pulled-agents'
import type { RepositoryCalls, ThreadMethod } from './jobs-thread-messages'
import { PeriodicJob, type JobReporting } from './periodic-job'

/** The pulled agents' rows: the store's repository, or the jobs' thread's on PostgreSQL (jobs-thread.ts). */
export type PulledAgentCalls = RepositoryCalls<PulledAgentRepository, ThreadMethod<'pulledAgents'>>

/** How often due agents are looked for while some are due or polled: polls start within this of being due. */
const TICK_MS = 250
/** Otherwise, how long until the next look (an agent just added waits at most this for its first poll). */
const IDLE_TICK_MS = 1000
/** Polls waiting on agents at once: a slow or silent agent holds one for at most its timeouts. */
export const MAX_IN_FLIGHT = 16
/** Each poll's connection and answer, each at most this (and at most half the poll interval). */
const POLL_TIMEOUT_MS = 5_000

/** The collector permission on every host, for the pull job's messages (no user logs in as it). */
const PULL_PRINCIPAL: Principal = { userId: 0, uname: 'pull', admin: false, everyHost: Permission.Collector, perHost: new Map() }

export class PullJob {
  private readonly job: PeriodicJob<Promise<number>>
  private readonly inFlight = new Set<number>()
  /** Per pulled agent: its services' status bits at its last answer, and the newest snapshot it stored (µs). */
  private readonly last = new Map<number, { baseline: Map<string, number>; snapshotUsec: number }>()
  /** Per pulled agent: its failures, logged once until it answers again. */
  private readonly failures = new Map<number, RepeatedFailureLog>()
  private stopped = false

  constructor(
    private readonly agents: PulledAgentCalls,
    private readonly secrets: SecretBox,
    /** The collector's ingest (IngestThread.collect). */
    private readonly collect: (request: CollectRequest) => Promise<CollectOutcome>,
    private readonly reporting: JobReporting,
    private readonly now = () => Date.now()
  ) {
    // With nothing due nor in flight the next look is a second away: a query four times a second, for a
    // table most servers leave empty, would be waste.
    this.job = new PeriodicJob({
      ...reporting,
      name: 'pull',
      intervalMs: TICK_MS,
      run: async () => ((await this.startDue()).length > 0 || this.inFlight.size > 0 ? TICK_MS : IDLE_TICK_MS)
    })
  }

  start(): void {
    this.stopped = false
    this.job.start(0)
  }

  /** Starts no more polls; those waiting on agents are dropped when they end. */
  stop(): void {
    this.stopped = true
    this.job.stop()
  }

  /** Starts the polls due now, within MAX_IN_FLIGHT; each settles by itself. Resolves with them (tests). */
  async startDue(): Promise<Promise<void>[]> {
    if (MAX_IN_FLIGHT - this.inFlight.size <= 0) return []
    const listed = await this.agents.due(Math.floor(this.now() / 1000), MAX_IN_FLIGHT)
    // Counted again: polls may have started or ended while the list was read (on the jobs' thread).
    const free = MAX_IN_FLIGHT - this.inFlight.size
    if (this.stopped || free <= 0) return []
    const due = listed.filter((a) => !this.inFlight.has(a.id)).slice(0, free)
    return due.map((agent) => {
      this.inFlight.add(agent.id)
      return this.poll(agent).finally(() => this.inFlight.delete(agent.id))
    })
  }

  private async poll(agent: PulledAgentRow): Promise<void> {
    const at = Math.floor(this.now() / 1000)
    const timeoutMs = Math.min(POLL_TIMEOUT_MS, (agent.poll_sec * 1000) / 2)
    const client = new AgentClient({
      host: agent.address,
      port: agent.port,
      ssl: agent.ssl === 1,
      user: agent.username,
      password: this.secrets.open(agent.password),
      certificateSha256: agent.certificate_sha256,
      connectTimeoutMs: timeoutMs,
      responseTimeoutMs: timeoutMs
    })
    try {
      const document = await client.statusDocument()
      const message = parseMonitMessage(document)
      if (this.stopped) return
      if (agent.agent_id !== null && message.agent.id !== agent.agent_id) {
        throw new Error(`another agent answers at ${client.address} (id ${message.agent.id}, not ${agent.agent_id}): nothing stored`)
      }
      if (await this.pushesNow(agent, message.agent.id)) return
      const before = this.last.get(agent.id)
      const events = before ? impliedEvents(before.baseline, message.services) : []
      const messages =
        events.length === 0
          ? [pulledMessage(document, agent.poll_sec)]
          : events.map(({ cls, ...e }) => pulledMessage(document, agent.poll_sec, { ...e, id: cls, action: 1 }))
      for (const xml of messages) {
        const outcome = await this.collect({ xml, principal: PULL_PRINCIPAL, nowMs: this.now(), source: agent.address })
        if (outcome.kind !== 'stored')
          throw new Error(`not stored: ${'error' in outcome ? outcome.error : 'message' in outcome ? outcome.message : outcome.detail}`)
      }
      if (this.stopped) return
      const snapshotUsec = Math.max(0, ...message.services.map((s) => s.collectedSec * 1_000_000 + s.collectedUsec))
      this.last.set(agent.id, { baseline: baselineOf(message.services), snapshotUsec })
      const certificate = agent.ssl === 1 ? agent.certificate_sha256 || (client.peerCertificateSha256 ?? '') : ''
      if (agent.agent_id === null) await this.agents.pinCallBack(message.agent.id, agent, certificate)
      await this.agents.polled(agent.id, {
        at,
        error: null,
        agentId: message.agent.id,
        certificateSha256: agent.ssl === 1 && agent.certificate_sha256 === '' ? certificate : undefined
      })
      this.failuresOf(agent).succeeded()
    } catch (err) {
      if (this.stopped) return
      const text = err instanceof Error ? err.message : String(err)
      this.failuresOf(agent).failed(err, `tried again every ${agent.poll_sec} s`, text)
      try {
        await this.agents.polled(agent.id, { at, error: text.slice(0, 500) })
      } catch (storeErr) {
        this.reporting.onError?.(storeErr)
      }
    }
  }

  /** Whether the agent's host took a snapshot newer than the last one pulled: then it is no longer pulled. */
  private async pushesNow(agent: PulledAgentRow, agentId: string): Promise<boolean> {
    const pulled = this.last.get(agent.id)?.snapshotUsec
    if (pulled === undefined) return false
    const stored = await this.agents.hostSnapshotUsec(agentId)
    if (stored === undefined || stored <= pulled) return false
    await this.agents.remove(agent.id)
    this.last.delete(agent.id)
    this.reporting.log.info(`pull: agent ${agentId} at ${agent.address}:${agent.port} now pushes its reports; it is no longer pulled`)
    return true
  }

  private failuresOf(agent: PulledAgentRow): RepeatedFailureLog {
    let log = this.failures.get(agent.id)
    if (!log) {
      log = new RepeatedFailureLog(this.reporting.log, `pull from ${agent.address}:${agent.port}`)
      this.failures.set(agent.id, log)
    }
    return log
  }
}
