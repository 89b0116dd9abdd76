// Failures already active when a rule is saved, or when a host enters its scope (issue 28): a rule is
// matched against events as they are stored, so without this it would never tell of what was failing
// before it. The rule editor asks how many it would page about (count), saving can notify them at once
// (notify), and the delivery job's reminder pass reminds of those no notification of the rule told of
// (remindUntold). Rows are written as the collector's are (alertItem, the outbox writer).
import type { AlertItem } from '../../shared/api/alerts'
import { Heartbeat } from '../../shared/codes'
import { compileRule, failureInScope, untoldReminderDueAt, type AlertEvent, type CompiledRule, type RuleRows } from '../domain/alert-rules'
import { toldKey, type ActiveFailure } from '../store/alert-matching'
import type { Store } from '../store/store'
import { alertItem } from './alert-item'

/** The failures a rule pages about, as the rule editor shows them: how many, and the first few. */
export interface FailuresFound {
  count: number
  first: AlertItem[]
}

const LISTED = 5
/** First reminders queued per pass at most: a storm's are queued over several passes. */
const MAX_UNTOLD_PER_PASS = 1_000

export class FailuresInScope {
  /** `now`: the server's clock in unix ms (the delivery job's, which tests move). */
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now
  ) {}

  /** The active failures rule `rule` (saved or not, enabled or not) pages about now, those it told of already left out. */
  count(rule: RuleRows): FailuresFound {
    const { groupMembers, mutes } = this.store.alertMatching.configRows()
    const told = this.store.alertMatching.toldActiveFailures()
    const found = this.inScope(compileRule(rule, groupMembers), mutes).filter((f) => !told.has(toldKey(f.event_id, rule.id)))
    return { count: found.length, first: found.slice(0, LISTED).map((f) => this.itemOf(f)) }
  }

  /**
   * Queues, as alerts after the rule's group wait, the failures saved rule `ruleId` pages about that no
   * row of it tells of yet. Returns how many; 0 for a rule disabled or without an enabled channel.
   */
  notify(ruleId: number): number {
    const config = this.store.alertMatching.configRows()
    const row = config.rules.find((r) => r.id === ruleId)
    if (!row?.enabled || row.channelIds.length === 0) return 0
    const rule = compileRule(row, config.groupMembers)
    const told = this.store.alertMatching.toldActiveFailures()
    const untold = this.inScope(rule, config.mutes).filter((f) => !told.has(toldKey(f.event_id, rule.id)))
    const createdAt = this.nowSec()
    this.write(untold, rule, createdAt, 'alert', createdAt + rule.groupWaitSec)
    return untold.length
  }

  /**
   * Queues the first reminders due by `now` of failures each reminding rule pages about but never told of,
   * at most MAX_UNTOLD_PER_PASS (the rest on the next pass: this runs on the thread that serves HTTP).
   */
  remindUntold(): number {
    const config = this.store.alertMatching.configRows()
    const now = this.nowSec()
    // None can be due before a reminder period has passed since its rule was made.
    const rules = config.rules.filter((r) => r.enabled && r.channelIds.length > 0 && r.reminderMin > 0 && untoldReminderDueAt(r, 0) <= now)
    if (rules.length === 0) return 0
    const told = this.store.alertMatching.toldActiveFailures()
    const failures = this.store.alertMatching.activeFailures()
    let queued = 0
    for (const row of rules) {
      const rule = compileRule(row, config.groupMembers)
      const due = this.inScope(rule, config.mutes, failures)
        .filter((f) => !told.has(toldKey(f.event_id, rule.id)) && untoldReminderDueAt(rule, f.date) <= now)
        .slice(0, MAX_UNTOLD_PER_PASS - queued)
      this.write(due, rule, now, 'reminder', now)
      queued += due.length
      if (queued >= MAX_UNTOLD_PER_PASS) break
    }
    return queued
  }

  private inScope(
    rule: CompiledRule,
    mutes: Parameters<typeof failureInScope>[2],
    failures = this.store.alertMatching.activeFailures()
  ): ActiveFailure[] {
    const now = this.nowSec()
    return failures.filter((f) => failureInScope(rule, eventOf(f), mutes, now, f.heartbeat === Heartbeat.Dead))
  }

  private write(failures: readonly ActiveFailure[], rule: CompiledRule, createdAt: number, kind: 'alert' | 'reminder', dueAt: number) {
    if (failures.length === 0) return
    const targets = rule.channelIds.map((channelId) => ({ channelId, ruleId: rule.id, kind, dueAt }))
    this.store.transaction(() => {
      for (const f of failures) this.store.alertOutboxWriter.add(f.event_id, this.itemOf(f), createdAt, targets)
    })
  }

  private itemOf(f: ActiveFailure): AlertItem {
    return alertItem(
      {
        hostId: f.host_id,
        hostname: f.hostname,
        eventId: f.event_id,
        service: f.service_name,
        serviceType: f.service_type,
        cls: f.class,
        state: f.state,
        message: f.message,
        date: f.date
      },
      this.store.alertMatching
    )
  }

  private nowSec(): number {
    return Math.floor(this.now() / 1000)
  }
}

function eventOf(f: ActiveFailure): AlertEvent {
  return {
    hostId: f.host_id,
    service: f.service_name,
    serviceNameId: f.service_name_id,
    serviceType: f.service_type,
    cls: f.class,
    state: f.state,
    priorState: undefined,
    timeSec: f.date
  }
}
