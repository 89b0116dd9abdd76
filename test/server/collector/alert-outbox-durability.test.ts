// The outbox row is durable once the collector answered (issue 13): the built server, killed with
// SIGKILL right after its 200, still has every acknowledged event's alert when it starts again.
import { afterEach, describe, expect, it } from 'vitest'
import { DATABASE_FILE } from '../../../src/server/server'
import { Store } from '../../../src/server/store/store'
import { addChannel, addRule, outboxRows } from '../../support/alert-config'
import { removeDir, startBuiltServer, type BuiltServer } from '../../support/built-server'
import { postCollector } from '../../support/collector-client'
import { asAgent, fixture } from '../../support/fixtures'
import { captureShiftTo, retimeCapture } from '../../support/payloads'
import { storeLocation } from '../../support/test-database'

let server: BuiltServer | undefined
afterEach(async () => {
  if (server) {
    await server.kill()
    removeDir(server.dataDir)
    server = undefined
  }
})

describe('alert outbox durability (built server)', () => {
  it("killed with SIGKILL right after the collector's 200: every acknowledged failure has its outbox row after the restart", async () => {
    server = await startBuiltServer({ args: ['--init-collector', 'monit:abc123'] })
    const location = storeLocation(server.dataDir, DATABASE_FILE)
    // Written by another connection while the server runs, as the admin API would.
    const admin = new Store(location)
    const rule = addRule(admin.sql.plain, { channelIds: [addChannel(admin.sql.plain)] })
    admin.close()

    const shift = captureShiftTo(Math.floor(Date.now() / 1000))
    const acknowledged: string[] = []
    for (let i = 0; i < 20; i++) {
      const id = `e${i.toString(16).padStart(31, '0')}`
      const xml = retimeCapture(asAgent(fixture('03-event-process-not-running'), id, `host-${i}`), shift)
      if ((await postCollector(server.baseUrl, xml, { auth: 'monit:abc123' })).status === 200) acknowledged.push(`host-${i}`)
    }
    await server.kill()
    expect(acknowledged).toHaveLength(20)

    const { dataDir } = server
    server = await startBuiltServer({ dataDir })
    const db = new Store(location)
    try {
      const rows = outboxRows(db.sql.plain)
      expect(rows.map((r) => r.item.host).sort()).toEqual(acknowledged.sort())
      expect(rows.every((r) => r.rule_id === rule && r.kind === 'alert' && r.item.service === 'sleeper' && r.item.state === 'failed')).toBe(
        true
      )
    } finally {
      db.close()
    }
  })
})
