// Migration 010 on a database written by the version before it: a notification's alerts are no longer
// copied into it, its summary, link and number of alerts are kept.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openDatabase } from '../../../src/server/store/database'
import { removeDir } from '../../support/built-server'

let dir: string | undefined
afterEach(() => {
  if (dir) removeDir(dir)
  dir = undefined
})

it('keeps what the delivery log shows of the notifications made before it', () => {
  dir = mkdtempSync(join(tmpdir(), 'overseer-m010-'))
  const file = join(dir, 'overseer.sqlite')
  const before = openDatabase(file, undefined, 9).sqlite
  before.prepare(`INSERT INTO alert_channel (id, name, type, settings, created_at) VALUES (1, 'ops', 'webhook', '{}', 0)`).run()
  const insert = before.prepare(
    `INSERT INTO alert_notification (uid, channel_id, created_at, status, payload) VALUES (?, 1, 0, 'delivered', ?)`
  )
  insert.run('u1', JSON.stringify({ id: 'u1', summary: '2 services failed on web-1', link: 'http://h/#/hosts/1', alerts: [{}, {}] }))
  insert.run('u2', '{}')
  before.close()

  const after = openDatabase(file).sqlite
  expect(after.prepare('SELECT uid, summary, link, alert_count FROM alert_notification ORDER BY id').all()).toEqual([
    { uid: 'u1', summary: '2 services failed on web-1', link: 'http://h/#/hosts/1', alert_count: 2 },
    { uid: 'u2', summary: '', link: '', alert_count: 0 }
  ])
  expect(
    (after.prepare(`SELECT name FROM pragma_table_info('alert_notification')`).all() as { name: string }[]).map((c) => c.name)
  ).not.toContain('payload')
  after.close()
})
