// Alert rules for the collector benchmark (BENCH_ALERT_RULES): a mix an installation might have,
// written with plain SQL before the measurement. Most match the benchmark's events (a failure, a
// change, a program failure), some do not: matching costs for both.
import type Database from 'better-sqlite3'

const PATTERNS = ['', 'sleep*', 'lab*', '*prog', 'nginx', 'db-?', '*']
const TYPES = [[], [3], [7], [0, 1, 2], [3, 7]]
const STATES = [7, 1, 3, 5]

export interface BenchRuleOptions {
  /** Where each rule's webhook channel posts; default port 9 (discard), where nothing listens. */
  url?: string
  /** The rules' group wait in seconds (default 30, the rules' own default). */
  groupWaitSec?: number
}

export function addBenchRules(db: Database.Database, count: number, options: BenchRuleOptions = {}): void {
  const settings = JSON.stringify({ url: options.url ?? 'http://127.0.0.1:9/' })
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const channel = (
        db
          .prepare(`INSERT INTO alert_channel (name, type, settings, created_at) VALUES (?, 'webhook', ?, 0) RETURNING id`)
          .get(`bench channel ${i}`, settings) as { id: number }
      ).id
      const rule = (
        db
          .prepare(`INSERT INTO alert_rule (name, service_pattern, states, group_wait_sec, created_at) VALUES (?, ?, ?, ?, 0) RETURNING id`)
          .get(`bench rule ${i}`, PATTERNS[i % PATTERNS.length], STATES[i % STATES.length], options.groupWaitSec ?? 30) as { id: number }
      ).id
      db.prepare('INSERT INTO alert_rule_channel (rule_id, channel_id) VALUES (?, ?)').run(rule, channel)
      for (const t of TYPES[i % TYPES.length])
        db.prepare('INSERT INTO alert_rule_service_type (rule_id, service_type) VALUES (?, ?)').run(rule, t)
    }
  })()
}

export function outboxCount(db: Database.Database): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM alert_outbox').get() as { n: number }).n
}

/** Notifications the delivery job made, and how many of them a channel took. */
export function notificationCounts(db: Database.Database): { made: number; delivered: number } {
  return db.prepare(`SELECT COUNT(*) AS made, COALESCE(SUM(status = 'delivered'), 0) AS delivered FROM alert_notification`).get() as {
    made: number
    delivered: number
  }
}
