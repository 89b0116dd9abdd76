// Turns a newly recorded event into alert outbox rows (issue 13), in the event's transaction, and
// tells the failures inhibited during a host's silence that still fail once it is back. Each
// connection that records events (the ingest thread's, the watchdog's) keeps its own compiled rule set
// and compiles it again only when the configuration's generation changed (migration 009): with no rule,
// an event costs one read of that counter; with rules, a pass over them in memory, and the host's row,
// service id and silence only when one matches.
import { compileRules, matchRules, noAlertConfig, suppression, type AlertConfig, type AlertEvent } from '../domain/alert-rules'
import type { Store } from '../store/store'
import type { MonitEvent } from '../monit/message'
import { alertItem } from './alert-item'

export class AlertEnqueuer {
  private config: AlertConfig = noAlertConfig
  private generation: string | undefined
  /** Inside withinBatch: whether the generation was read since the batch began or its configuration may have moved. */
  private batch: { checked: boolean } | undefined

  /** `now`: the server's clock in unix ms (the delivery job's, which tests move). */
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now
  ) {}

  /**
   * Call inside the transaction that stored event `eventId`, for an event that is a new fact and the
   * newest of its service and class. `priorState`: the newest state of that service and class before it.
   */
  enqueue(hostId: number, eventId: number, serviceNameId: number, e: MonitEvent, priorState: number | undefined): void {
    this.match(hostId, eventId, serviceNameId, e, priorState, true)
  }

  /**
   * Failures inhibited while their host was silent and still active now that it reports again (its
   * silence ended between `endedFrom` and `endedTo`, unix seconds) are told now, once: "reports again"
   * stands for what the host did while silent, not for what still fails. Returns how many were matched.
   */
  announceSilenced(endedFrom: number, endedTo: number): number {
    if (this.current().rules.length === 0) return 0
    const failures = this.store.alertMatching.silencedFailures(endedFrom, endedTo)
    if (failures.length === 0) return 0
    this.store.transaction(() => {
      for (const f of failures) {
        const e: MonitEvent = {
          collectedSec: f.date,
          collectedUsec: f.collected_usec % 1e6,
          service: f.service_name,
          serviceType: f.service_type,
          id: f.class,
          state: f.state,
          action: f.action,
          message: f.message
        }
        this.match(f.host_id, f.event_id, f.service_name_id, e, undefined, false)
      }
    })
    return failures.length
  }

  private match(
    hostId: number,
    eventId: number,
    serviceNameId: number,
    e: MonitEvent,
    priorState: number | undefined,
    inhibition: boolean
  ): void {
    const config = this.current()
    if (config.rules.length === 0) return
    const event: AlertEvent = {
      hostId,
      service: e.service,
      serviceNameId,
      serviceType: e.serviceType,
      cls: e.id,
      state: e.state,
      priorState,
      timeSec: e.collectedSec
    }
    const matches = matchRules(config.rules, event)
    if (matches.length === 0) return
    const { alertMatching, alertOutboxWriter } = this.store
    const host = alertMatching.host(hostId)
    const silence = inhibition ? alertMatching.silenceAt(hostId, e.collectedSec) : undefined
    if (!host || suppression(config.mutes, event, { status: host.status, silence })) return
    const item = alertItem(
      {
        hostId,
        hostname: host.hostname,
        eventId,
        service: e.service,
        serviceType: e.serviceType,
        cls: e.id,
        state: e.state,
        message: e.message,
        date: e.collectedSec
      },
      alertMatching
    )
    // The server's clock: the delivery job compares due_at with it (the event's time is the agent's).
    const createdAt = Math.floor(this.now() / 1000)
    alertOutboxWriter.add(
      eventId,
      item,
      createdAt,
      matches.flatMap(({ rule, kind }) =>
        rule.channelIds.map((channelId) => ({ channelId, ruleId: rule.id, kind, dueAt: createdAt + rule.groupWaitSec }))
      )
    )
  }

  /**
   * Runs `fn`, one transaction of several messages' events, reading the configuration's generation once
   * (a round trip per event on PostgreSQL otherwise), and again after configMayHaveChanged.
   */
  withinBatch<T>(fn: () => T): T {
    this.batch = { checked: false }
    try {
      return fn()
    } finally {
      this.batch = undefined
    }
  }

  /** The batch wrote what the rules read (an agent's declared host groups): the next event reads the generation again. */
  configMayHaveChanged(): void {
    if (this.batch) this.batch.checked = false
  }

  /** The compiled configuration, compiled again if another write changed it since. */
  private current(): AlertConfig {
    if (this.batch?.checked) return this.config
    if (this.batch) this.batch.checked = true
    const generation = this.store.alertMatching.generation()
    if (generation !== this.generation) {
      const rows = this.store.alertMatching.configRows()
      this.config = { rules: compileRules(rows.rules, rows.groupMembers), mutes: rows.mutes }
      this.generation = generation
    }
    return this.config
  }
}
