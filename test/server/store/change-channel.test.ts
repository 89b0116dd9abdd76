// Live changes between instances (store/postgres/change-channel.ts): what one instance sends reaches the
// others, never itself, in NOTIFY payloads PostgreSQL accepts.
import { afterEach, describe, expect, it } from 'vitest'
import type { LiveChange } from '../../../src/shared/live'
import type { ChangeChannel } from '../../../src/server/store/change-channel'
import { MAX_PAYLOAD_BYTES, payloads } from '../../../src/server/store/postgres/change-channel'
import { tempStore, type TempStore } from '../../support/temp-store'
import { testEngine } from '../../support/test-database'
import { waitFor } from '../../support/wait'

const changed = (n: number) => ({
  kind: 'host-changed' as const,
  hostId: n,
  hostname: `host-${n}-${'x'.repeat(40)}`,
  led: 2,
  status: 'Running'
})

describe('payloads', () => {
  it('splits many changes into payloads below PostgreSQL’s limit, keeping every change in order', () => {
    const changes = Array.from({ length: 500 }, (_, n) => changed(n))
    const sent = payloads('me', changes, () => {})
    expect(sent.length).toBeGreaterThan(1)
    for (const p of sent) expect(Buffer.byteLength(p)).toBeLessThan(MAX_PAYLOAD_BYTES)
    expect(sent.flatMap((p) => (JSON.parse(p) as { changes: LiveChange[] }).changes)).toEqual(changes)
  })

  it('drops a change too large for any payload, and says so', () => {
    const lines: string[] = []
    const huge: LiveChange = { ...changed(1), status: 'y'.repeat(MAX_PAYLOAD_BYTES) }
    expect(payloads('me', [huge, changed(2)], (l) => lines.push(l)).map((p) => JSON.parse(p) as unknown)).toEqual([
      { from: 'me', changes: [changed(2)] }
    ])
    expect(lines).toEqual([expect.stringMatching(/too large to send to the other instances \(host-changed\)/)])
  })
})

describe.skipIf(testEngine !== 'postgres')('between two instances on PostgreSQL', () => {
  let t: TempStore
  const channels: ChangeChannel[] = []
  afterEach(async () => {
    for (const c of channels.splice(0)) await c.close()
    t.close()
  })

  it('delivers what one sends to the other only', async () => {
    t = tempStore()
    const got = { a: [] as LiveChange[], b: [] as LiveChange[] }
    const [a, b] = [t.store.openChangeChannel(() => {})!, t.store.openChangeChannel(() => {})!]
    channels.push(a, b)
    await a.listen((c) => got.a.push(...c))
    await b.listen((c) => got.b.push(...c))
    const warnings: string[] = []
    const warned = (w: Error) => warnings.push(w.message)
    process.on('warning', warned)
    const many = Array.from({ length: 300 }, (_, n) => changed(n))
    a.send(many)
    await waitFor('all changes on b', () => got.b.length === many.length, 5_000)
    expect(got.b).toEqual(many)
    process.off('warning', warned)
    expect(warnings, 'several payloads in flight on one client: pipelined').toEqual([])
    b.send([changed(1000)])
    await waitFor('the change on a', () => got.a.length === 1, 5_000)
    expect(got.a).toEqual([changed(1000)])
    expect(got.b).toHaveLength(many.length)
  })
})
