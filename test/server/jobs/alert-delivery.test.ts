// The delivery job over a real database (on PostgreSQL its outbox's statements on the jobs' thread, as
// in the server), sending through the registered `webhook` channel to real HTTP receivers on 127.0.0.1.
// The job's clock is injected (unix seconds from T0), so group waits,
// backoff and reminders take no real time.
import { createHmac } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { AlertDeliveryJob, type AlertDeliveryOptions, type AlertOutbox } from '../../../src/server/jobs/alert-delivery'
import { JobsThread } from '../../../src/server/jobs/jobs-thread'
import { MAX_ALERTS_PER_NOTIFICATION, MAX_ATTEMPTS } from '../../../src/server/domain/alert-delivery'
import { EventClassId } from '../../../src/shared/codes'
import { silentLogger } from '../../../src/server/log'
import { startAlertReceiver, type AlertReceiver } from '../../support/alert-receiver'
import { addChannel, addMute, addRule } from '../../support/alert-config'
import { addEvent, addHost, addOutbox, item, notifications, recover } from '../../support/alert-rows'
import { tempStore, type TempStore } from '../../support/temp-store'
import type { PlainSql } from '../../../src/server/store/sql'
import { sqliteOf, testEngine } from '../../support/test-database'
import { waitFor } from '../../support/wait'
import { addDeliveryHistory } from '../../../bench/delivery-passes'

const T0 = 1_700_000_000
const CONSOLE = 'http://console.test:8080'
/** A send timeout no test outlives: a send that ends within a test was not timed out. */
const LONGER_THAN_ANY_TEST_MS = 600_000

let temp: TempStore
let db: PlainSql
let clock: number
let job: AlertDeliveryJob
const receivers: AlertReceiver[] = []

/** Started by the jobs on PostgreSQL, closed after each test. */
const threads: JobsThread[] = []

function newJob(opts: Partial<AlertDeliveryOptions> = {}): AlertDeliveryJob {
  return new AlertDeliveryJob(
    temp.store,
    temp.secrets,
    {
      consoleUrl: CONSOLE,
      now: () => clock * 1000,
      ...opts
    },
    { log: silentLogger },
    outboxOnThread(opts.keepSec)
  )
}

/** On PostgreSQL the outbox's statements run on the jobs' thread, as in the server. */
function outboxOnThread(alertKeepSec: number | undefined): AlertOutbox | undefined {
  if (testEngine !== 'postgres') return undefined
  const thread = new JobsThread({ database: temp.store.location, consoleUrl: CONSOLE, alertKeepSec })
  threads.push(thread)
  return {
    run: (nowMs, sending) => thread.alertPass(nowMs, sending),
    record: (n, result, nowMs) => thread.alertRecord(n, result, nowMs)
  }
}

/** One pass at unix second `at`, and every send it started finished. */
async function passAt(at: number): Promise<void> {
  clock = at
  await job.runOnce()
  await job.idle()
}

async function receiver(): Promise<AlertReceiver> {
  const r = await startAlertReceiver()
  receivers.push(r)
  return r
}

beforeEach(() => {
  temp = tempStore()
  db = temp.store.sql.plain
  clock = T0
  job = newJob()
})

afterEach(async () => {
  await job.stop()
  await Promise.all(threads.splice(0).map((t) => t.close()))
  await Promise.all(receivers.splice(0).map((r) => r.close()))
  temp.close()
})

describe('grouping', () => {
  it('sends the rows arriving within the group wait of the first as one notification, links absolute', async () => {
    const hook = await receiver()
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    const rule = addRule(db, { name: 'all', channelIds: [channel] })
    const web1 = addHost(db, 'web-1')
    const web2 = addHost(db, 'web-2')
    const e1 = addEvent(db, web1, 'nginx', T0)
    const e2 = addEvent(db, web1, 'mysql', T0 + 10)
    const e3 = addEvent(db, web2, 'nginx', T0 + 20)
    addOutbox(db, { channelId: channel, ruleId: rule, eventId: e1, item: item(web1, 'web-1', 'nginx', e1), createdAt: T0 })
    addOutbox(db, { channelId: channel, ruleId: rule, eventId: e2, item: item(web1, 'web-1', 'mysql', e2), createdAt: T0 + 10 })
    addOutbox(db, { channelId: channel, ruleId: rule, eventId: e3, item: item(web2, 'web-2', 'nginx', e3), createdAt: T0 + 20 })

    await passAt(T0 + 29)
    expect(notifications(db)).toHaveLength(0)
    await passAt(T0 + 30)

    expect(hook.received).toHaveLength(1)
    const body = hook.received[0].body
    expect(body.summary).toBe('3 services failed on 2 hosts')
    expect(body.alerts.map((a) => a.service)).toEqual(['nginx', 'mysql', 'nginx'])
    expect(body.alerts[0].link).toBe(`${CONSOLE}/#/events/${e1}`)
    expect(body.link).toBe(`${CONSOLE}/#/events`)
    const [n] = notifications(db)
    expect(n).toMatchObject({ uid: body.id, status: 'delivered', attempts: 1, delivered_at: T0 + 30 })
    expect(n).toMatchObject({ summary: body.summary, link: body.link, alert_count: body.alerts.length })
    expect(db.prepare('SELECT COUNT(*) AS n FROM alert_outbox WHERE notification_id = ?').get(n.id)).toEqual({ n: 3 })

    // Nothing is sent twice.
    await passAt(T0 + 600)
    expect(hook.received).toHaveLength(1)
  })

  // SQLite's database-wide write lock; PostgreSQL locks rows (PostgresRunner.withoutWaiting).
  it.skipIf(testEngine === 'postgres')(
    'does not wait for the write lock another connection holds: the pass asks to run again soon, and groups then',
    async () => {
      const hook = await receiver()
      const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
      const rule = addRule(db, { name: 'all', channelIds: [channel] })
      const host = addHost(db, 'web-1')
      const e1 = addEvent(db, host, 'nginx', T0)
      addOutbox(db, { channelId: channel, ruleId: rule, eventId: e1, item: item(host, 'web-1', 'nginx', e1), createdAt: T0 })
      // As the ingest thread does: another connection in the middle of a write transaction.
      const other = new Database(join(temp.dir, 'test.sqlite'))
      try {
        other.prepare('BEGIN IMMEDIATE').run()
        // A pass that waited for the lock would sit out this busy timeout, far past the test's own.
        const busyTimeout = sqliteOf(temp.store).pragma('busy_timeout', { simple: true }) as number
        sqliteOf(temp.store).pragma('busy_timeout = 600000')
        clock = T0 + 30
        const retryMs = await job.runOnce()
        expect(retryMs).toBeGreaterThan(0)
        expect(retryMs).toBeLessThan(1_000)
        expect(notifications(db)).toHaveLength(0)
        expect(sqliteOf(temp.store).pragma('busy_timeout', { simple: true })).toBe(600000)
        sqliteOf(temp.store).pragma(`busy_timeout = ${busyTimeout}`)
        other.prepare('COMMIT').run()
      } finally {
        other.close()
      }
      await passAt(T0 + 30)
      expect(hook.received).toHaveLength(1)
      expect(notifications(db)).toMatchObject([{ status: 'delivered' }])
    }
  )

  it('never mixes the rows of two channels, and tells each channel of an event once', async () => {
    const a = await receiver()
    const b = await receiver()
    const chA = addChannel(db, { name: 'a', settings: { url: a.url } })
    const chB = addChannel(db, { name: 'b', settings: { url: b.url } })
    const rule1 = addRule(db, { name: 'one', channelIds: [chA, chB] })
    const rule2 = addRule(db, { name: 'two', channelIds: [chA] })
    const host = addHost(db, 'db-1')
    const e1 = addEvent(db, host, 'postgres', T0)
    const e2 = addEvent(db, host, 'disk', T0)
    // e1 matched both rules for channel a: two rows, one alert.
    addOutbox(db, { channelId: chA, ruleId: rule1, eventId: e1, item: item(host, 'db-1', 'postgres', e1), createdAt: T0 })
    addOutbox(db, { channelId: chA, ruleId: rule2, eventId: e1, item: item(host, 'db-1', 'postgres', e1), createdAt: T0 })
    addOutbox(db, { channelId: chB, ruleId: rule1, eventId: e2, item: item(host, 'db-1', 'disk', e2), createdAt: T0 })

    await passAt(T0 + 30)

    expect(a.received.map((r) => r.body.alerts.map((x) => x.service))).toEqual([['postgres']])
    expect(a.received[0].body.summary).toBe('postgres failed on db-1')
    expect(b.received.map((r) => r.body.alerts.map((x) => x.service))).toEqual([['disk']])
    expect(a.received[0].body.id).not.toBe(b.received[0].body.id)
    const rows = notifications(db)
    expect(rows.map((n) => [n.channel_id, n.status])).toEqual([
      [chA, 'delivered'],
      [chB, 'delivered']
    ])
  })
})

describe('a storm', () => {
  // How long its passes take: npm run bench -- alerting.
  it('sends 1,200 alerts of 1,200 hosts as two notifications', async () => {
    const hook = await receiver()
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    const rule = addRule(db, { name: 'all', channelIds: [channel] })
    temp.store.transaction(() => {
      for (let i = 1; i <= 1200; i++) {
        const host = addHost(db, `host-${i}`)
        const event = addEvent(db, host, 'nginx', T0)
        addOutbox(db, {
          channelId: channel,
          ruleId: rule,
          eventId: event,
          item: item(host, `host-${i}`, 'nginx', event),
          createdAt: T0 + (i % 20)
        })
      }
    })
    await passAt(T0 + 30)
    await passAt(T0 + 31)
    expect(hook.received.map((r) => r.body.alerts.length)).toEqual([MAX_ALERTS_PER_NOTIFICATION, 200])
    expect(hook.received[0].body.summary).toBe('1000 services failed on 1000 hosts')
  })
})

describe('a long history', () => {
  // 29 days at a tenth of the bench's density; how long the passes take over the full one (indexed
  // reads, not scans) is measured by npm run bench -- alerting.
  const history = { notifications: 2_000, rowsEach: 10 }
  it('sends a new alert once with 30 days of outbox rows and notifications behind it, and keeps them', async () => {
    const hook = await receiver()
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    const rule = addRule(db, { name: 'remind', channelIds: [channel], reminderMin: 60 })
    const host = addHost(db, 'web-1')
    addDeliveryHistory(temp.store, channel, rule, T0, history)
    const event = addEvent(db, host, 'nginx', T0)
    addOutbox(db, { channelId: channel, ruleId: rule, eventId: event, item: item(host, 'web-1', 'nginx', event), createdAt: T0 })
    for (let at = T0 + 30; at < T0 + 40; at++) await passAt(at)
    expect(hook.received).toHaveLength(1)
    expect(db.prepare('SELECT COUNT(*) AS n FROM alert_notification').get()).toEqual({ n: history.notifications + 1 })
  })
})

describe('retries', () => {
  it('retries a refused send with backoff by the clock, with the same id, until delivered', async () => {
    const hook = await receiver()
    hook.answerWith((n) => (n === 0 ? 500 : 200))
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    const host = addHost(db, 'web-1')
    addOutbox(db, { channelId: channel, item: item(host, 'web-1', 'nginx', null), createdAt: T0 })

    await passAt(T0 + 30)
    expect(notifications(db)[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      next_attempt_at: T0 + 60,
      last_error: expect.stringContaining('500')
    })
    await passAt(T0 + 59)
    expect(hook.received).toHaveLength(1)
    await passAt(T0 + 60)

    expect(hook.received.map((r) => r.answer)).toEqual([500, 200])
    expect(hook.received[1].body.id).toBe(hook.received[0].body.id)
    expect(hook.received.map((r) => r.idHeader)).toEqual([hook.received[0].body.id, hook.received[0].body.id])
    expect(notifications(db)[0]).toMatchObject({ uid: hook.received[0].body.id, status: 'delivered', attempts: 2, delivered_at: T0 + 60 })
  })

  it('waits as long as a rate-limited receiver asked (Retry-After) before trying again', async () => {
    const hook = await receiver()
    hook.answerWith((n) => (n === 0 ? { status: 429, headers: { 'Retry-After': '600' } } : 200))
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    addOutbox(db, { channelId: channel, item: item(addHost(db, 'web-1'), 'web-1', 'nginx', null), createdAt: T0 })

    await passAt(T0 + 30)
    expect(notifications(db)[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      next_attempt_at: T0 + 630,
      last_error: expect.stringContaining('retry after 600 s')
    })
    await passAt(T0 + 629)
    expect(hook.received).toHaveLength(1)
    await passAt(T0 + 630)
    expect(notifications(db)[0]).toMatchObject({ status: 'delivered', attempts: 2 })
  })

  it('gives up after the bounded attempts, keeping the last error, with the backoff doubling', async () => {
    const hook = await receiver()
    hook.answerWith(503)
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    addOutbox(db, { channelId: channel, item: item(1, 'web-1', 'nginx', null), createdAt: T0 })
    const waits: number[] = []
    let at = T0 + 30
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await passAt(at)
      const n = notifications(db)[0]
      if (n.next_attempt_at !== null) waits.push(n.next_attempt_at - at)
      at = n.next_attempt_at ?? at + 3600
    }
    await passAt(at + 86_400)

    expect(hook.received).toHaveLength(MAX_ATTEMPTS)
    expect(new Set(hook.received.map((r) => r.body.id)).size).toBe(1)
    expect(waits).toEqual([30, 60, 120, 240, 480, 960, 1800, 1800, 1800])
    expect(notifications(db)[0]).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      next_attempt_at: null,
      last_error: expect.stringContaining('503')
    })
  })
})

describe('a slow channel', () => {
  it('delays no other channel: while one send hangs, another channel is served, and served again', async () => {
    const dead = await receiver()
    dead.answerWith('hang')
    const live = await receiver()
    // The hanging send cannot end within the test: what the live channel gets, it gets meanwhile.
    await job.stop()
    job = newJob({ sendTimeoutMs: LONGER_THAN_ANY_TEST_MS })
    const chDead = addChannel(db, { name: 'dead', settings: { url: dead.url } })
    const chLive = addChannel(db, { name: 'live', settings: { url: live.url } })
    addOutbox(db, { channelId: chDead, item: item(1, 'web-1', 'nginx', null), createdAt: T0 })
    addOutbox(db, { channelId: chLive, item: item(1, 'web-1', 'nginx', null), createdAt: T0 })

    clock = T0 + 30
    await job.runOnce()
    await waitFor('the live channel served', () => live.received.length === 1 && notifications(db)[1].status === 'delivered', 5_000, 5)
    // Another alert for the live channel while the dead one still hangs: served too.
    addOutbox(db, { channelId: chLive, item: item(1, 'web-1', 'mysql', null), createdAt: T0 + 31 })
    clock = T0 + 61
    // Passes as the job runs them, one after the other: the live channel's first send counts as under way
    // until the job has its recorded result (on PostgreSQL, back from the jobs' thread), and gets none meanwhile.
    await waitFor(
      'the second live notification',
      async () => (await job.runOnce(), live.received.length === 2 && notifications(db)[2]?.status === 'delivered'),
      5_000,
      5
    )
    expect(dead.received).toHaveLength(1)
    expect(notifications(db)[0]).toMatchObject({ status: 'pending', attempts: 0 })
  })

  it('times a hanging send out after the send timeout: a failed attempt, to be tried again', async () => {
    const dead = await receiver()
    dead.answerWith('hang')
    const timeoutMs = 1_500
    await job.stop()
    job = newJob({ sendTimeoutMs: timeoutMs })
    addOutbox(db, {
      channelId: addChannel(db, { name: 'dead', settings: { url: dead.url } }),
      item: item(1, 'web-1', 'nginx', null),
      createdAt: T0
    })

    clock = T0 + 30
    const started = performance.now()
    await job.runOnce()
    await job.idle()
    expect(performance.now() - started).toBeGreaterThanOrEqual(timeoutMs - 50)
    expect(dead.received).toHaveLength(1)
    expect(notifications(db)[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: 'no answer within 1.5 s' })
  })
})

describe('stopping', () => {
  it('aborts a send in flight and leaves its notification pending for the next start', async () => {
    const hook = await receiver()
    hook.answerWith('hang')
    // Unless stop() aborts the send, it waits for a timeout that no test outlives.
    await job.stop()
    job = newJob({ sendTimeoutMs: LONGER_THAN_ANY_TEST_MS })
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    addOutbox(db, { channelId: channel, item: item(1, 'web-1', 'nginx', null), createdAt: T0 })
    clock = T0 + 30
    await job.runOnce()
    await waitFor('the send in flight', () => hook.received.length === 1, 5_000, 5)
    await job.stop()
    expect(notifications(db)[0]).toMatchObject({ status: 'pending', attempts: 0, last_error: null })
  })
})

describe('reminders', () => {
  it('reminds every reminder minutes while the failure stays active, and stops when it recovers', async () => {
    const hook = await receiver()
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    const rule = addRule(db, { name: 'remind', channelIds: [channel], reminderMin: 10 })
    const host = addHost(db, 'web-1')
    const event = addEvent(db, host, 'nginx', T0)
    addOutbox(db, { channelId: channel, ruleId: rule, eventId: event, item: item(host, 'web-1', 'nginx', event), createdAt: T0 })

    await passAt(T0 + 30) // the alert, notified at T0 + 30
    await passAt(T0 + 30 + 599)
    expect(hook.received).toHaveLength(1)
    await passAt(T0 + 30 + 600)
    expect(hook.received).toHaveLength(2)
    expect(hook.received[1].body.summary).toBe('Reminder: nginx failed on web-1')
    expect(hook.received[1].body.id).not.toBe(hook.received[0].body.id)
    await passAt(T0 + 30 + 1199)
    expect(hook.received).toHaveLength(2)
    await passAt(T0 + 30 + 1200)
    expect(hook.received).toHaveLength(3)

    recover(db, event)
    await passAt(T0 + 30 + 1800)
    await passAt(T0 + 30 + 7200)
    expect(hook.received).toHaveLength(3)
    expect(db.prepare('SELECT kind, COUNT(*) AS n FROM alert_outbox GROUP BY kind ORDER BY kind').all()).toEqual([
      { kind: 'alert', n: 1 },
      { kind: 'reminder', n: 2 }
    ])
  })

  it('reminds of a silent host, not of its services', async () => {
    const hook = await receiver()
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    const rule = addRule(db, { name: 'remind', channelIds: [channel], reminderMin: 5 })
    const host = addHost(db, 'web-1')
    const service = addEvent(db, host, 'nginx', T0)
    const heartbeat = addEvent(db, host, 'web-1', T0, EventClassId.Heartbeat)
    addOutbox(db, { channelId: channel, ruleId: rule, eventId: service, item: item(host, 'web-1', 'nginx', service), createdAt: T0 })
    addOutbox(db, {
      channelId: channel,
      ruleId: rule,
      eventId: heartbeat,
      item: { ...item(host, 'web-1', 'web-1', heartbeat), serviceid: null },
      createdAt: T0
    })
    db.prepare('UPDATE host SET heartbeat = 0 WHERE id = ?').run(host)

    await passAt(T0 + 30)
    await passAt(T0 + 30 + 300)
    expect(hook.received.map((r) => r.body.summary)).toEqual(['2 alerts failed on web-1', 'Reminder: web-1 stopped reporting'])
  })

  it('reminds of failures active before the rule (never told by it), a reminder period after it was made, then as any other', async () => {
    const hook = await receiver()
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    addRule(db, { name: 'plain', channelIds: [channel] })
    const remind = addRule(db, { name: 'remind', channelIds: [channel], reminderMin: 5 })
    db.prepare('UPDATE alert_rule SET created_at = ? WHERE id = ?').run(T0, remind)
    const web1 = addHost(db, 'web-1')
    const web2 = addHost(db, 'web-2')
    addEvent(db, web1, 'nginx', T0 - 3600)
    addEvent(db, web2, 'nginx', T0 - 3600)
    // The services' rows, as the collector keeps them (the alerts' service ids).
    db.prepare(
      `INSERT INTO service (host_id, name_id, name, type, position, collected_usec, status, status_hint, monitor, monitor_mode,
      on_reboot, pending_action, led, status_text) SELECT h.id, n.id, n.name, 3, 0, 0, 512, 0, 1, 0, 0, 0, 0, 'Does not exist'
      FROM host h, service_name n WHERE n.name = 'nginx'`
    ).run()
    addMute(db, web2, T0 + 7200)
    recover(db, addEvent(db, web1, 'mysql', T0 - 3600))

    await passAt(T0 + 200)
    expect(hook.received).toHaveLength(0)
    await passAt(T0 + 300)
    expect(hook.received.map((r) => r.body.summary)).toEqual(['Reminder: nginx failed on web-1'])
    await passAt(T0 + 599)
    expect(hook.received).toHaveLength(1)
    await passAt(T0 + 600)
    expect(hook.received.map((r) => r.body.summary)).toEqual(['Reminder: nginx failed on web-1', 'Reminder: nginx failed on web-1'])
  })

  it('sends no reminder for a rule without one, or a muted host', async () => {
    const hook = await receiver()
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    const web1 = addHost(db, 'web-1')
    const web2 = addHost(db, 'web-2')
    const plain = addRule(db, { name: 'plain', channelIds: [channel] })
    const remind = addRule(db, { name: 'remind', channelIds: [channel], reminderMin: 5, hostIds: [web2] })
    const e1 = addEvent(db, web1, 'nginx', T0)
    const e2 = addEvent(db, web2, 'nginx', T0)
    addOutbox(db, { channelId: channel, ruleId: plain, eventId: e1, item: item(web1, 'web-1', 'nginx', e1), createdAt: T0 })
    addOutbox(db, { channelId: channel, ruleId: remind, eventId: e2, item: item(web2, 'web-2', 'nginx', e2), createdAt: T0 })
    db.prepare("INSERT INTO alert_mute (host_id, until, created_by, created_at) VALUES (?, ?, 'admin', ?)").run(web2, T0 + 3600, T0)

    await passAt(T0 + 30)
    await passAt(T0 + 30 + 1800)
    expect(hook.received).toHaveLength(1)
    await passAt(T0 + 3600) // the mute ended
    // web-2's first alert was muted by the time it was sent (a mute applies at send time).
    expect(hook.received.map((r) => r.body.summary)).toEqual(['nginx failed on web-1', 'Reminder: nginx failed on web-2'])
  })
})

describe('a mute at send time', () => {
  it('sends nothing of a host muted after its alerts were queued, and logs the notification as suppressed', async () => {
    const hook = await receiver()
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    const rule = addRule(db, { name: 'all', channelIds: [channel] })
    const web1 = addHost(db, 'web-1')
    const e1 = addEvent(db, web1, 'nginx', T0)
    addOutbox(db, { channelId: channel, ruleId: rule, eventId: e1, item: item(web1, 'web-1', 'nginx', e1), createdAt: T0 })
    addMute(db, web1, T0 + 3600) // muted during the group wait

    await passAt(T0 + 30)
    expect(hook.received).toHaveLength(0)
    expect(notifications(db)).toMatchObject([{ status: 'suppressed', attempts: 0, delivered_at: null }])
    expect(notifications(db)[0].log).toMatch(/^suppressed \(muted\)/)
    await passAt(T0 + 600)
    expect(hook.received).toHaveLength(0)
  })

  it('sends the alerts of services not muted, and says how many were left out', async () => {
    const hook = await receiver()
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    const rule = addRule(db, { name: 'all', channelIds: [channel] })
    const web1 = addHost(db, 'web-1')
    const nginx = addEvent(db, web1, 'nginx', T0)
    const mysql = addEvent(db, web1, 'mysql', T0)
    addOutbox(db, { channelId: channel, ruleId: rule, eventId: nginx, item: item(web1, 'web-1', 'nginx', nginx), createdAt: T0 })
    addOutbox(db, { channelId: channel, ruleId: rule, eventId: mysql, item: item(web1, 'web-1', 'mysql', mysql), createdAt: T0 })
    addMute(db, web1, T0 + 3600, 'nginx')
    addMute(db, web1, T0 + 10, 'mysql') // over by the time of sending

    await passAt(T0 + 30)
    expect(hook.received.map((r) => r.body.alerts.map((a) => a.service))).toEqual([['mysql']])
    expect(notifications(db)).toMatchObject([{ status: 'delivered' }])
    expect(notifications(db)[0].log).toMatch(/^1 of 2 alerts suppressed \(muted since queued\)/)
  })
})

describe('failures of a silent time', () => {
  /** A silence of the host (its heartbeat dead) from `start` to `end`, as the watchdog and the collector record it. */
  const addSilence = (hostId: number, start: number, end: number | null) =>
    db.prepare('INSERT INTO state_interval (host_id, service_name_id, start, "end") VALUES (?, NULL, ?, ?)').run(hostId, start, end)
  /** A failure of the host's process `service`, with the service's row as the collector keeps it. */
  const addFailure = (hostId: number, service: string, date: number): number => {
    const event = addEvent(db, hostId, service, date)
    db.prepare(
      `INSERT INTO service (host_id, name_id, name, type, position, collected_usec, status, status_hint, monitor, monitor_mode,
      on_reboot, pending_action, led, status_text) SELECT ?, id, name, 3, 0, 0, 512, 0, 1, 0, 0, 0, 0, 'Does not exist' FROM service_name
      WHERE name = ?`
    ).run(hostId, service)
    return event
  }

  it('tells the failures inhibited while the host was silent that still fail a minute after it came back, once', async () => {
    const hook = await receiver()
    addRule(db, { name: 'all', channelIds: [addChannel(db, { name: 'ops', settings: { url: hook.url } })] })
    const web1 = addHost(db, 'web-1')
    addSilence(web1, T0 - 600, T0 - 100)
    const still = addFailure(web1, 'nginx', T0 - 300)
    recover(db, addFailure(web1, 'mysql', T0 - 250)) // replayed, then recovered: nothing to tell
    addFailure(web1, 'cron', T0 - 700) // before the silence: matched (or not) when it came
    const web2 = addHost(db, 'web-2')
    addSilence(web2, T0 - 600, T0 - 30) // back for 30 s only: its replays may still be coming
    addFailure(web2, 'nginx', T0 - 300)
    const web3 = addHost(db, 'web-3')
    addSilence(web3, T0 - 600, null) // still silent
    addFailure(web3, 'nginx', T0 - 300)

    await passAt(T0)
    await passAt(T0 + 30)
    expect(hook.received.map((r) => r.body.summary)).toEqual(['nginx failed on web-1'])
    expect(hook.received[0].body.alerts[0].link).toBe(`${CONSOLE}/#/events/${still}`)

    await passAt(T0 + 60) // web-2 back for 90 s now
    await passAt(T0 + 90)
    expect(hook.received.map((r) => r.body.summary)).toEqual(['nginx failed on web-1', 'nginx failed on web-2'])
    await passAt(T0 + 200)
    await passAt(T0 + 400)
    expect(hook.received).toHaveLength(2)
  })

  it('tells none to a rule that does not match them, nor of a host muted at the time', async () => {
    const hook = await receiver()
    const channel = addChannel(db, { name: 'ops', settings: { url: hook.url } })
    addRule(db, { name: 'mysql only', channelIds: [channel], servicePattern: 'mysql' })
    const web1 = addHost(db, 'web-1')
    addSilence(web1, T0 - 600, T0 - 100)
    addFailure(web1, 'nginx', T0 - 300)
    const web2 = addHost(db, 'web-2')
    addSilence(web2, T0 - 600, T0 - 100)
    addFailure(web2, 'mysql', T0 - 300)
    addMute(db, web2, T0 - 200)
    await passAt(T0)
    await passAt(T0 + 30)
    expect(hook.received).toEqual([])
    expect(db.prepare('SELECT COUNT(*) AS n FROM alert_outbox').get()).toEqual({ n: 0 })
  })
})

describe('pruning', () => {
  it('deletes finished notifications and their rows past the bound, keeps the rest', async () => {
    await job.stop()
    job = newJob({ keepSec: 3600 })
    const channel = addChannel(db, { name: 'ops', settings: { url: 'http://127.0.0.1:9/unused' } })
    const notify = (uid: string, status: string, createdAt: number) => {
      const id = Number(
        (
          db
            .prepare(
              `INSERT INTO alert_notification (uid, channel_id, created_at, status, next_attempt_at)
        VALUES (?, ?, ?, ?, ?) RETURNING id`
            )
            .get(uid, channel, createdAt, status, status === 'pending' ? T0 + 86_400 : null) as { id: number }
        ).id
      )
      const row = addOutbox(db, { channelId: channel, item: item(1, 'h', 's', null), createdAt })
      db.prepare('UPDATE alert_outbox SET notification_id = ? WHERE id = ?').run(id, row)
    }
    notify('old-delivered', 'delivered', T0 - 7200)
    notify('old-failed', 'failed', T0 - 7200)
    notify('old-pending', 'pending', T0 - 7200)
    notify('new-delivered', 'delivered', T0 - 60)

    await passAt(T0)

    expect(notifications(db).map((n) => n.uid)).toEqual(['old-pending', 'new-delivered'])
    expect(db.prepare('SELECT COUNT(*) AS n FROM alert_outbox').get()).toEqual({ n: 2 })
  })

  it('prunes in steps of 500 a minute, so that no pass holds the thread long', async () => {
    const channel = addChannel(db, { name: 'ops', settings: { url: 'http://127.0.0.1:9/unused' } })
    const insert = db.prepare(`INSERT INTO alert_notification (uid, channel_id, created_at, status) VALUES (?, ?, ?, 'delivered')`)
    temp.store.transaction(() => {
      for (let i = 0; i < 1200; i++) insert.run(`n${i}`, channel, T0 - 40 * 86_400)
    })
    const left = () => (db.prepare('SELECT COUNT(*) AS n FROM alert_notification').get() as { n: number }).n
    await passAt(T0)
    expect(left()).toBe(700)
    await passAt(T0 + 59)
    expect(left()).toBe(700)
    await passAt(T0 + 60)
    await passAt(T0 + 120)
    expect(left()).toBe(0)
  })
})

describe('channel settings', () => {
  it('opens the sealed secrets with the key of the server: the webhook signs with the secret', async () => {
    const hook = await receiver()
    const channel = addChannel(db, { name: 'signed', settings: { url: hook.url, secret: temp.secrets.seal('s3cret') } })
    expect(db.prepare('SELECT settings FROM alert_channel WHERE id = ?').get(channel)).not.toMatchObject({
      settings: expect.stringContaining('s3cret')
    })
    addOutbox(db, { channelId: channel, item: item(1, 'web-1', 'nginx', null), createdAt: T0 })
    await passAt(T0 + 30)
    const [got] = hook.received
    expect(got.signature).toBe(`sha256=${createHmac('sha256', 's3cret').update(got.raw).digest('hex')}`)
    expect(notifications(db)[0].status).toBe('delivered')
  })

  it("renders the channel's own templates, and a secret URL opened (slack)", async () => {
    const hook = await receiver()
    const channel = addChannel(db, { name: 'chat', type: 'slack', settings: { url: temp.secrets.seal(hook.url) } })
    db.prepare('UPDATE alert_channel SET subject_template = ?, body_template = ? WHERE id = ?').run(
      '{{count}} new',
      '{{#each alerts}}{{host}}/{{service}} {{/each}}',
      channel
    )
    addOutbox(db, { channelId: channel, item: item(1, 'web-1', 'nginx', null), createdAt: T0 })
    addOutbox(db, { channelId: channel, item: item(2, 'web-2', 'mysql', null), createdAt: T0 })
    await passAt(T0 + 30)
    expect(hook.received.map((r) => r.body)).toEqual([{ text: '*2 new*\nweb-1/nginx web-2/mysql' }])
  })
})

describe('the words', () => {
  it("tells a chat channel what failed in words, with the host's other failures now and a link to the service", async () => {
    const hook = await receiver()
    const channel = addChannel(db, { name: 'chat', type: 'slack', settings: { url: temp.secrets.seal(hook.url) } })
    const web1 = addHost(db, 'web-1')
    addEvent(db, web1, 'cron', T0 - 600)
    const nginx = addEvent(db, web1, 'nginx', T0)
    recover(db, addEvent(db, web1, 'mysql', T0 - 300)) // recovered: not failing now
    addEvent(db, addHost(db, 'web-2'), 'nginx', T0) // another host's
    addOutbox(db, { channelId: channel, eventId: nginx, item: item(web1, 'web-1', 'nginx', nginx, 'failed', T0), createdAt: T0 })
    await passAt(T0 + 30)
    const { text } = hook.received[0].body as unknown as { text: string }
    expect(text).toMatch(/^\*\[Overseer\] process nginx does not exist on web-1\*\n/)
    expect(text).toContain(`${CONSOLE}/#/hosts/${web1}/services/nginx`)
    expect(text).toContain('Also failing now:\n* process cron does not exist on web-1, since ')
    expect(text.match(/^\* /gm)).toHaveLength(2)
  })
})

describe('the desktop channel', () => {
  it('hands the notification and its rendered text to the desktop app, or says none is connected', async () => {
    const shown: [string, string][] = []
    await job.stop()
    job = newJob({ desktop: (notification, message) => (shown.push([notification.summary, message.subject]), true) })
    const channel = addChannel(db, { name: 'desk', type: 'desktop', settings: {} })
    addOutbox(db, { channelId: channel, item: item(1, 'web-1', 'nginx', null), createdAt: T0 })
    await passAt(T0 + 30)
    expect(shown).toEqual([['nginx failed on web-1', '[Overseer] process nginx does not exist on web-1']])
    expect(notifications(db)[0].status).toBe('delivered')

    await job.stop()
    job = newJob()
    addOutbox(db, { channelId: channel, item: item(1, 'web-1', 'mysql', null), createdAt: T0 + 40 })
    await passAt(T0 + 70)
    expect(notifications(db)[1]).toMatchObject({ status: 'pending', last_error: expect.stringContaining('no desktop app is connected') })
  })
})

describe('a channel that cannot send', () => {
  it('holds back no other channel when its rows cannot be grouped', async () => {
    const hook = await receiver()
    const broken = addChannel(db, { name: 'broken', settings: { url: hook.url } })
    const fine = addChannel(db, { name: 'fine', settings: { url: hook.url } })
    const row = addOutbox(db, { channelId: broken, item: item(1, 'h', 's', null), createdAt: T0 })
    db.prepare("UPDATE alert_outbox SET item = 'not json' WHERE id = ?").run(row)
    addOutbox(db, { channelId: fine, item: item(1, 'web-1', 'nginx', null), createdAt: T0 })
    clock = T0 + 30
    // A SyntaxError here; from the jobs' thread, an Error with its words.
    await expect(job.runOnce()).rejects.toThrow(/not valid JSON/)
    await job.idle()
    expect(notifications(db).map((n) => [n.channel_id, n.status])).toEqual([[fine, 'delivered']])
    expect(hook.received.map((r) => r.body.summary)).toEqual(['nginx failed on web-1'])
  })

  it('records a disabled channel as failed and an unknown type as an error to retry', async () => {
    const off = addChannel(db, { name: 'off', settings: { url: 'http://127.0.0.1:9/x' } })
    const odd = addChannel(db, { name: 'odd', type: 'carrier-pigeon', settings: {} })
    addOutbox(db, { channelId: off, item: item(1, 'h', 's', null), createdAt: T0 })
    addOutbox(db, { channelId: odd, item: item(1, 'h', 's', null), createdAt: T0 })
    await passAt(T0 + 30) // grouped and sent once `off` was still enabled
    db.prepare('UPDATE alert_channel SET enabled = 0 WHERE id = ?').run(off)
    db.prepare("UPDATE alert_notification SET status = 'pending', attempts = 0, next_attempt_at = ? WHERE channel_id = ?").run(T0 + 31, off)
    await passAt(T0 + 31)

    const byChannel = new Map(notifications(db).map((n) => [n.channel_id, n]))
    expect(byChannel.get(off)).toMatchObject({ status: 'failed', last_error: 'the channel is disabled' })
    expect(byChannel.get(odd)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: "no channel type 'carrier-pigeon' in this server"
    })
  })
})
