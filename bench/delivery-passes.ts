// The alert delivery job's passes, which run on the thread that serves HTTP: in this process, each case
// on a store of its own (SQLite; PostgreSQL with OVERSEER_TEST_POSTGRES, test/support/test-database.ts),
// the job's clock moved by hand as in its tests, sending to webhook receivers on 127.0.0.1:
//   - a storm: 1,200 outbox rows of 1,200 hosts grouped into 2 notifications, in two passes;
//   - a long history: 30 days of delivered notifications with their outbox rows behind one new alert,
//     ten passes; the reads must use indexes (a scan of either table took ~35 ms a pass);
//   - a hanging channel: how soon another channel's alert arrives while the first one's send hangs;
//   - failures older than their rule: the reminder pass's share for 10,000 active failures a reminding rule
//     never told of (each matched in memory), queuing them 1,000 a pass, then once all are told.
import { FailuresInScope } from '../src/server/events/failures-in-scope'
import { AlertDeliveryJob } from '../src/server/jobs/alert-delivery'
import { silentLogger } from '../src/server/log'
import type { Store } from '../src/server/store/store'
import { addChannel, addRule } from '../test/support/alert-config'
import { startAlertReceiver, type AlertReceiver } from '../test/support/alert-receiver'
import { addEvent, addHost, addOutbox, item } from '../test/support/alert-rows'
import { tempStore, type TempStore } from '../test/support/temp-store'
import { waitFor } from '../test/support/wait'
import { fixed, int, percentile, printRows, verdict } from './support'

const T0 = 1_700_000_000
const STORM_HOSTS = 1_200
const MAX_STORM_PASS_MS = 500
const MAX_HISTORY_PASS_MS = 10
const MAX_SERVED_MS = 500
const UNTOLD_FAILURES = 10_000
const MAX_UNTOLD_PASS_MS = 500

export interface DeliveryHistory {
  notifications: number
  rowsEach: number
}

/** The long history: 20,000 delivered notifications over 29 days (one every 125 s), with 10 outbox rows each. */
export const DELIVERY_HISTORY: DeliveryHistory = { notifications: 20_000, rowsEach: 10 }

/**
 * `history` on `channelId`, rows of `ruleId`: its notifications spread evenly over the 29 days before `now`.
 * Two statements: a row at a time takes minutes on PostgreSQL.
 */
export function addDeliveryHistory(store: Store, channelId: number, ruleId: number, now: number, history = DELIVERY_HISTORY): void {
  const db = store.sql.plain
  const counting = (n: number) => `WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < ${n - 1})`
  const spanSec = 86_400 * 29
  store.transaction(() => {
    db.exec(`${counting(history.notifications)} INSERT INTO alert_notification (uid, channel_id, created_at, status, attempts)
      SELECT 'old-' || n, ${channelId}, ${now - spanSec} + n * ${Math.floor(spanSec / history.notifications)}, 'delivered', 1 FROM i`)
    db.exec(`${counting(history.rowsEach)} INSERT INTO alert_outbox (channel_id, rule_id, event_id, kind, item, created_at, due_at, notification_id)
      SELECT ${channelId}, ${ruleId}, NULL, 'alert', '{}', created_at, created_at, id FROM alert_notification, i`)
  })
}

/** A store, receivers and a job on them, closed whatever happens. */
async function withJob(
  measure: (setup: { temp: TempStore; receivers: AlertReceiver[]; job: AlertDeliveryJob; at: (sec: number) => void }) => Promise<void>
): Promise<void> {
  const temp = tempStore()
  const receivers = [await startAlertReceiver(), await startAlertReceiver()]
  let clock = T0
  const job = new AlertDeliveryJob(
    temp.store,
    temp.secrets,
    { consoleUrl: 'http://console.test', now: () => clock * 1000 },
    { log: silentLogger }
  )
  try {
    await measure({ temp, receivers, job, at: (sec) => (clock = sec) })
  } finally {
    await job.stop()
    await Promise.all(receivers.map((r) => r.close()))
    temp.close()
  }
}

/** One pass at unix second `sec`, in ms (the sends it starts are waited for, not counted). */
async function timedPass(job: AlertDeliveryJob, at: (sec: number) => void, sec: number): Promise<number> {
  at(sec)
  const started = performance.now()
  await job.runOnce()
  const ms = performance.now() - started
  await job.idle()
  return ms
}

async function storm(): Promise<void> {
  await withJob(async ({ temp, receivers: [hook], job, at }) => {
    const db = temp.store.sql.plain
    const channelId = addChannel(db, { settings: { url: hook.url } })
    const ruleId = addRule(db, { channelIds: [channelId] })
    temp.store.transaction(() => {
      for (let i = 1; i <= STORM_HOSTS; i++) {
        const host = addHost(db, `host-${i}`)
        const event = addEvent(db, host, 'nginx', T0)
        addOutbox(db, { channelId, ruleId, eventId: event, item: item(host, `host-${i}`, 'nginx', event), createdAt: T0 + (i % 20) })
      }
    })
    const passes = [await timedPass(job, at, T0 + 30), await timedPass(job, at, T0 + 31)]
    const sent = hook.received.map((r) => r.body.alerts.length).join(' + ')
    printRows([[`storm of ${int(STORM_HOSTS)} rows`, `passes ${passes.map((ms) => fixed(ms, 1)).join(' and ')} ms; ${sent} alerts sent`]])
    const longest = Math.max(...passes)
    console.log(verdict(`each storm pass under ${MAX_STORM_PASS_MS} ms`, longest < MAX_STORM_PASS_MS, `longest ${fixed(longest, 1)} ms`))
  })
}

async function longHistory(): Promise<void> {
  await withJob(async ({ temp, receivers: [hook], job, at }) => {
    const db = temp.store.sql.plain
    const channelId = addChannel(db, { settings: { url: hook.url } })
    const ruleId = addRule(db, { channelIds: [channelId], reminderMin: 60 })
    const host = addHost(db, 'web-1')
    addDeliveryHistory(temp.store, channelId, ruleId, T0)
    const event = addEvent(db, host, 'nginx', T0)
    addOutbox(db, { channelId, ruleId, eventId: event, item: item(host, 'web-1', 'nginx', event), createdAt: T0 })
    const passes: number[] = []
    for (let sec = T0 + 30; sec < T0 + 40; sec++) passes.push(await timedPass(job, at, sec))
    const later = passes.slice(1).sort((a, b) => a - b) // the first one also prunes
    const median = percentile(later, 50)
    const { notifications, rowsEach } = DELIVERY_HISTORY
    printRows([
      [
        `history of ${int(notifications)} notifications, ${int(notifications * rowsEach)} rows`,
        `first pass ${fixed(passes[0], 1)} ms, then median ${fixed(median, 2)} ms, max ${fixed(later.at(-1)!, 2)} ms; ${hook.received.length} sent`
      ]
    ])
    console.log(
      verdict(`median pass under ${MAX_HISTORY_PASS_MS} ms over the history`, median < MAX_HISTORY_PASS_MS, `${fixed(median, 2)} ms`)
    )
  })
}

async function hangingChannel(): Promise<void> {
  await withJob(async ({ temp, receivers: [dead, live], job, at }) => {
    dead.answerWith('hang')
    const db = temp.store.sql.plain
    for (const hook of [dead, live]) {
      addOutbox(db, { channelId: addChannel(db, { settings: { url: hook.url } }), item: item(1, 'web-1', 'nginx', null), createdAt: T0 })
    }
    at(T0 + 30)
    const started = Date.now()
    await job.runOnce()
    await waitFor('the live channel served', () => live.received.length === 1, 10_000, 1)
    const servedMs = live.received[0].at - started
    printRows([['hanging channel', `the other one's alert arrived after ${servedMs} ms`]])
    console.log(verdict(`the other channel served within ${MAX_SERVED_MS} ms`, servedMs < MAX_SERVED_MS, `${servedMs} ms`))
  })
}

async function untoldFailures(): Promise<void> {
  await withJob(async ({ temp }) => {
    const db = temp.store.sql.plain
    const channelId = addChannel(db, { settings: { url: 'http://127.0.0.1:9/' } })
    const ruleId = addRule(db, { channelIds: [channelId], reminderMin: 60 })
    db.prepare('UPDATE alert_rule SET created_at = ? WHERE id = ?').run(T0, ruleId)
    temp.store.transaction(() => {
      for (let i = 1; i <= UNTOLD_FAILURES; i++) addEvent(db, addHost(db, `host-${i}`), 'nginx', T0 - 600)
    })
    let clock = T0 + 3600
    const scope = new FailuresInScope(temp.store, () => clock * 1000)
    const timed = () => {
      const started = performance.now()
      const queued = scope.remindUntold()
      return { ms: performance.now() - started, queued }
    }
    // Due: each pass queues its bounded share; once all are told, a pass only reads and matches.
    const passes = [timed(), timed()]
    while (passes.at(-1)!.queued > 0) passes.push(timed())
    clock += 60
    const idle = timed()
    const queuing = passes.filter((p) => p.queued > 0)
    const longest = Math.max(...queuing.map((p) => p.ms), idle.ms)
    printRows([
      [
        `${int(UNTOLD_FAILURES)} failures older than the rule`,
        `${queuing.length} passes of ${int(queuing[0].queued)} reminders, ${fixed(queuing[0].ms, 1)}–${fixed(Math.max(...queuing.map((p) => p.ms)), 1)} ms; once all told ${fixed(idle.ms, 1)} ms`
      ]
    ])
    console.log(
      verdict(
        `each pass for untold failures under ${MAX_UNTOLD_PASS_MS} ms`,
        longest < MAX_UNTOLD_PASS_MS,
        `longest ${fixed(longest, 1)} ms`
      )
    )
  })
}

/** Prints the delivery job's figures and verdicts: the alerting benchmark's first part. */
export async function measureDeliveryPasses(): Promise<void> {
  console.log('the delivery job, in this process:')
  await storm()
  await longHistory()
  await hangingChannel()
  await untoldFailures()
}
