// The ingest thread does not keep a heartbeat waiting behind a row of large messages (next-batch.ts).
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { CollectOutcome } from '../../../src/server/collector/collect-message'
import { IngestThread } from '../../../src/server/collector/ingest-thread'
import type { Principal } from '../../../src/server/domain/permissions'
import { ChangeFeed } from '../../../src/server/live/change-feed'
import { silentLogger } from '../../../src/server/log'
import { fixture } from '../../support/fixtures'
import { largeHeartbeat } from '../../support/large-messages'
import { tempStore, type TempStore } from '../../support/temp-store'

const COLLECT_EVERYWHERE: Principal = { userId: 2, uname: 'monit', admin: false, everyHost: 1, perHost: new Map() }

let t: TempStore
let thread: IngestThread

beforeEach(async () => {
  t = tempStore()
  thread = await IngestThread.start({ database: t.store.location, keyFile: `${t.dir}/secret.key` }, new ChangeFeed(), silentLogger)
})
afterEach(async () => {
  await thread.close()
  t.close()
})

it('answers a heartbeat queued behind 8 large messages after one of them at most', async () => {
  // Each about 6.9 MB of XML, refused past the service limit after parsing 2,000 services.
  const big = largeHeartbeat('b16a' + '0'.repeat(28), { services: 25_000 })
  const answered: string[] = []
  const collect = (name: string, xml: Buffer): Promise<CollectOutcome> =>
    thread.collect({ xml, principal: COLLECT_EVERYWHERE, nowMs: Date.now() }).finally(() => answered.push(name))
  // A message at the limits keeps the thread busy for a few hundred ms (storing 2,000 new services),
  // long enough for all nine behind it to be queued before it takes its next batch.
  const first = collect('first', largeHeartbeat('f125' + '0'.repeat(28), { services: 2000, portTestsPerService: 20 }))
  const bigs = Array.from({ length: 8 }, (_, i) => collect(`big ${i + 1}`, Buffer.from(big)))
  const heartbeat = collect('heartbeat', fixture('02-status-heartbeat'))
  expect(await first).toMatchObject({ kind: 'stored' })
  expect(await heartbeat).toMatchObject({ kind: 'stored' })
  for (const outcome of await Promise.all(bigs)) expect(outcome).toMatchObject({ kind: 'refused', status: 413 })
  // The next batch takes one large message at most, and the heartbeat. Before: it took all nine in
  // arrival order, and the heartbeat was answered last.
  expect(answered.slice(0, 3)).toEqual(['first', 'big 1', 'heartbeat'])
}, 60_000) // storing 2,000 new services and parsing 55 MB of XML, beside other test files on PostgreSQL
