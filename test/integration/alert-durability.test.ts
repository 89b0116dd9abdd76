// The outbox survives kill -9 (issue 13), with the built server: alert rows written into its database
// file as the collector's matching writes them; the server is killed with SIGKILL while one send is in
// flight (its receiver never answers) and before another's group wait is over, then restarted on the
// same data directory. Each channel then receives its notification delivered once, the interrupted
// one with the same id as before the crash (at-least-once: receivers de-duplicate on it).
import { afterAll, describe, expect, it } from 'vitest'
import { addChannel } from '../support/alert-config'
import { addOutbox, item, notifications, type NotificationRow } from '../support/alert-rows'
import { startAlertReceiver, type AlertReceiver } from '../support/alert-receiver'
import { removeDir, startBuiltServer, type BuiltServer } from '../support/built-server'
import type { PlainSql } from '../../src/server/store/sql'
import { plainDatabaseOf } from '../support/test-database'
import { waitFor } from '../support/wait'

const ARGS = ['--init-admin', 'admin:adminsecret']

let server: BuiltServer | undefined
let dataDir: string | undefined
const receivers: AlertReceiver[] = []

afterAll(async () => {
  await server?.stop()
  await Promise.all(receivers.map((r) => r.close()))
  if (dataDir) removeDir(dataDir)
})

function withDb<T>(use: (db: PlainSql) => T): T {
  const db = plainDatabaseOf(dataDir!)
  try {
    return use(db)
  } finally {
    db.close()
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('kill -9 of the built server', () => {
  it('delivers after the restart, once per channel, with the same id', async () => {
    const inFlight = await startAlertReceiver()
    const waiting = await startAlertReceiver()
    receivers.push(inFlight, waiting)
    inFlight.answerWith((n) => (n === 0 ? 'hang' : 200))
    server = await startBuiltServer({ args: ARGS })
    dataDir = server.dataDir
    const now = Math.floor(Date.now() / 1000)
    const [chInFlight, chWaiting] = withDb((db) => {
      const a = addChannel(db, { name: 'in-flight', settings: { url: inFlight.url } })
      const b = addChannel(db, { name: 'waiting', settings: { url: waiting.url } })
      addOutbox(db, { channelId: a, item: item(1, 'web-1', 'nginx', null), createdAt: now - 30, groupWaitSec: 30 })
      addOutbox(db, { channelId: b, item: item(1, 'web-1', 'mysql', null), createdAt: now, groupWaitSec: 6 })
      return [a, b]
    })

    await waitFor('the first send in flight', () => inFlight.received.length === 1, 10_000, 20)
    const before = withDb(notifications)
    await server.kill()
    expect(before).toHaveLength(1)
    expect(before[0]).toMatchObject({ channel_id: chInFlight, status: 'pending', attempts: 0, uid: inFlight.received[0].body.id })
    expect(waiting.received).toHaveLength(0)

    server = await startBuiltServer({ dataDir, args: ARGS })
    const byChannel = (rows: NotificationRow[]) => new Map(rows.map((n) => [n.channel_id, n]))
    const after = await waitFor(
      'both delivered',
      () => {
        const rows = byChannel(withDb(notifications))
        return rows.get(chInFlight)?.status === 'delivered' && rows.get(chWaiting)?.status === 'delivered' && rows
      },
      30_000,
      100
    )
    await sleep(2_500) // proves absence: two or three more passes (one a second), and nothing more is sent

    expect(inFlight.received.map((r) => [r.body.id, r.idHeader, r.answer])).toEqual([
      [before[0].uid, before[0].uid, 'hang'],
      [before[0].uid, before[0].uid, 200]
    ])
    expect(after.get(chInFlight)).toMatchObject({ uid: before[0].uid, attempts: 1 })
    expect(waiting.received.map((r) => [r.body.id, r.answer])).toEqual([[after.get(chWaiting)!.uid, 200]])
    expect(waiting.received[0].body.alerts.map((a) => a.service)).toEqual(['mysql'])
    // Without --console-url, links point at the first listening URL.
    expect(waiting.received[0].body.alerts[0].link).toBe(`${server.baseUrl}/#/hosts/1`)
    expect(withDb(notifications)).toHaveLength(2)
  }, 90_000)
})
