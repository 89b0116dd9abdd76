// Alert rules for the collector benchmark (BENCH_ALERT_RULES): a mix an installation might have,
// written with plain SQL before the measurement. Most match the benchmark's events (a failure, a
// change, a program failure), some do not: matching costs for both.
import type Database from 'better-sqlite3'

const PATTERNS = ['', 'sleep*', 'lab*', '*prog', 'nginx', 'db-?', '*']
const TYPES = [[], [3], [7], [0, 1, 2], [3, 7]]
const STATES = [7, 1, 3, 5]

export function addBenchRules(db: Database.Database, count: number): void {
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const channel = db.prepare(`INSERT INTO alert_channel (name, type, settings, created_at) VALUES (?, 'webhook', '{"url":"http://127.0.0.1:9/"}', 0)`)
        .run(`bench channel ${i}`).lastInsertRowid
      const rule = db.prepare(`INSERT INTO alert_rule (name, service_pattern, states, group_wait_sec, created_at) VALUES (?, ?, ?, 30, 0)`)
        .run(`bench rule ${i}`, PATTERNS[i % PATTERNS.length], STATES[i % STATES.length]).lastInsertRowid
      db.prepare('INSERT INTO alert_rule_channel (rule_id, channel_id) VALUES (?, ?)').run(rule, channel)
      for (const t of TYPES[i % TYPES.length]) db.prepare('INSERT INTO alert_rule_service_type (rule_id, service_type) VALUES (?, ?)').run(rule, t)
    }
  })()
}

export function outboxCount(db: Database.Database): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM alert_outbox').get() as { n: number }).n
}
