import { mkdirSync, renameSync, rmdirSync } from 'node:fs'
import type { Worker } from 'node:worker_threads'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CollectRequest } from '../../../src/server/collector/collect-message'
import { IngestThread } from '../../../src/server/collector/ingest-thread'
import type { Principal } from '../../../src/server/domain/permissions'
import { ChangeFeed } from '../../../src/server/live/change-feed'
import type { Logger } from '../../../src/server/log'
import type { LiveChange } from '../../../src/shared/live'
import { asAgent, fixture } from '../../support/fixtures'
import { tempStore, type TempStore } from '../../support/temp-store'
import { hostOfAgent } from '../../support/hosts'

const COLLECT_EVERYWHERE: Principal = { userId: 2, uname: 'monit', admin: false, everyHost: 1, perHost: new Map() }

let t: TempStore
let feed: ChangeFeed
let errors: string[]
let thread: IngestThread
const log: Logger = { info: () => {}, warn: () => {}, error: (m) => errors.push(m) }

beforeEach(async () => {
  t = tempStore()
  feed = new ChangeFeed()
  errors = []
  thread = await IngestThread.start({ database: t.store.location, keyFile: `${t.dir}/secret.key` }, feed, log)
})
afterEach(async () => {
  await thread.close()
  t.close()
})

const request = (xml: Buffer, more: Partial<CollectRequest> = {}): CollectRequest => ({
  xml,
  principal: COLLECT_EVERYWHERE,
  nowMs: Date.now(),
  ...more
})
const hostCount = () => (t.store.sql.plain.prepare('SELECT COUNT(*) AS n FROM host').get() as { n: number }).n

describe('the ingest thread', () => {
  it('stores a message through its own connection and publishes its changes before answering', async () => {
    const published: LiveChange[] = []
    feed.subscribe((envelope) => published.push(envelope.change))
    const outcome = await thread.collect(request(fixture('02-status-heartbeat')))
    expect(outcome).toMatchObject({ kind: 'stored' })
    expect(published.map((c) => c.kind)).toContain('host-registered')
    // Committed: the main thread's own connection sees it.
    expect(hostOfAgent(t.store, '39900374079c371b7380946708ce1e29')).toBeDefined()
  })

  it('refuses what is not a Monit message and hosts the caller may not report for', async () => {
    expect(await thread.collect(request(Buffer.from('hello')))).toMatchObject({
      kind: 'refused',
      status: 400,
      error: expect.stringMatching(/^not a valid Monit message: /),
      warning: expect.any(String)
    })
    const onlyHost99: Principal = { ...COLLECT_EVERYWHERE, everyHost: 0, perHost: new Map([[99, 1]]) }
    expect(await thread.collect(request(fixture('02-status-heartbeat'), { principal: onlyHost99 }))).toEqual({
      kind: 'refused',
      status: 403,
      error: 'user monit may not report for this host'
    })
    expect(hostCount()).toBe(0)
  })

  it('stores messages queued together, each on its own: a refused one among them costs only itself', async () => {
    const onlyHost99: Principal = { ...COLLECT_EVERYWHERE, everyHost: 0, perHost: new Map([[99, 1]]) }
    const agent = (i: number) => asAgent(fixture('12-event-program-status-failed'), `b7${String(i).padStart(30, '0')}`)
    const outcomes = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => thread.collect(request(agent(i)))),
      thread.collect(request(Buffer.from('<monit id="broken">'))),
      thread.collect(request(agent(4), { principal: onlyHost99 })),
      ...Array.from({ length: 4 }, (_, i) => thread.collect(request(agent(5 + i))))
    ])
    expect(outcomes.map((o) => (o.kind === 'refused' ? o.status : o.kind))).toEqual([
      'stored',
      'stored',
      'stored',
      'stored',
      400,
      403,
      'stored',
      'stored',
      'stored',
      'stored'
    ])
    expect(hostCount()).toBe(8)
    const events = t.store.sql.plain.prepare('SELECT COUNT(*) AS n FROM event').get() as { n: number }
    expect(events.n).toBe(8)
  })

  it('interleaves with writes on the main thread: each waits for the other, none fails', async () => {
    const agents = Array.from({ length: 40 }, (_, i) => asAgent(fixture('02-status-heartbeat'), `a9${String(i).padStart(30, '0')}`))
    const posts = Promise.all(agents.map((xml) => thread.collect(request(xml))))
    // Write transactions on the main thread's connection while the ingest thread stores.
    for (let i = 0; i < 40; i++) {
      t.store.transaction(() => t.store.sql.plain.prepare('UPDATE host SET skew = skew').run())
      await new Promise((done) => setImmediate(done))
    }
    const outcomes = await posts
    expect(outcomes.filter((o) => o.kind !== 'stored')).toEqual([])
    expect(hostCount()).toBe(40)
  })

  it('answers a failure for what was in flight when the thread died, and starts a new one', async () => {
    const worker = (thread as unknown as { worker: Worker }).worker
    const inFlight = thread.collect(request(fixture('02-status-heartbeat')))
    await worker.terminate()
    // Answered either way, never left hanging (it may have been stored just before the end).
    expect(['failed', 'stored']).toContain((await inFlight).kind)
    expect(errors.join('\n')).toMatch(/ingest thread exited/)
    await expect.poll(async () => (await thread.collect(request(fixture('02-status-heartbeat')))).kind, { timeout: 10_000 }).toBe('stored')
  })

  it('survives an exception thrown on the thread: it is logged, the thread replaced, the server process untouched', async () => {
    const worker = (thread as unknown as { worker: Worker }).worker
    // Not a message of ours: reading its type throws inside the thread's message handler, uncaught there.
    worker.postMessage(null)
    await expect.poll(() => errors.join('\n'), { timeout: 10_000 }).toMatch(/the ingest thread failed: TypeError/)
    await expect.poll(async () => (await thread.collect(request(fixture('02-status-heartbeat')))).kind, { timeout: 10_000 }).toBe('stored')
  })

  it('keeps trying to start a new thread while one cannot start, and collects again once it can', async () => {
    // A new thread cannot open its secret key while a directory stands in its place (EISDIR).
    const keyFile = `${t.dir}/secret.key`
    renameSync(keyFile, `${keyFile}.aside`)
    mkdirSync(keyFile)
    await (thread as unknown as { worker: Worker }).worker.terminate()
    await expect.poll(() => errors.join('\n'), { timeout: 10_000 }).toMatch(/starting a new ingest thread failed: EISDIR/)
    expect((await thread.collect(request(fixture('02-status-heartbeat')))).kind).toBe('failed')
    rmdirSync(keyFile)
    renameSync(`${keyFile}.aside`, keyFile)
    await expect.poll(async () => (await thread.collect(request(fixture('02-status-heartbeat')))).kind, { timeout: 10_000 }).toBe('stored')
    expect(errors.filter((e) => e.includes('starting a new ingest thread failed'))).toHaveLength(1)
  })
})

describe('the ingest thread started on demand', () => {
  let onDemand: IngestThread
  let readies: (number | undefined)[]
  const workerOf = (x: IngestThread) => (x as unknown as { worker: Worker | undefined }).worker
  beforeEach(() => {
    readies = []
    onDemand = IngestThread.onDemand({ database: t.store.location, keyFile: `${t.dir}/secret.key` }, feed, log, (ready) =>
      readies.push(ready.pageCacheMib)
    )
  })
  afterEach(() => onDemand.close())

  it('has no thread until the first message, which it starts and stores; later messages use the same thread', async () => {
    expect(workerOf(onDemand)).toBeUndefined()
    const first = onDemand.collect(request(asAgent(fixture('02-status-heartbeat'), 'd1'.padEnd(32, '0'), 'first')))
    const second = onDemand.collect(request(asAgent(fixture('02-status-heartbeat'), 'd2'.padEnd(32, '0'), 'second')))
    expect((await first).kind).toBe('stored')
    expect((await second).kind).toBe('stored')
    const worker = workerOf(onDemand)
    expect(worker).toBeDefined()
    expect((await onDemand.collect(request(fixture('02-status-heartbeat')))).kind).toBe('stored')
    expect(workerOf(onDemand)).toBe(worker)
    expect(readies).toHaveLength(1)
    expect(hostCount()).toBe(3)
  })

  it('fails the messages while it cannot start, logs that once, and starts with a later message', async () => {
    const keyFile = `${t.dir}/secret.key`
    renameSync(keyFile, `${keyFile}.aside`)
    mkdirSync(keyFile)
    expect((await onDemand.collect(request(fixture('02-status-heartbeat')))).kind).toBe('failed')
    expect((await onDemand.collect(request(fixture('02-status-heartbeat')))).kind).toBe('failed')
    expect(errors.filter((e) => e.includes('starting a new ingest thread failed'))).toHaveLength(1)
    expect(errors.join('\n')).toMatch(/EISDIR/)
    rmdirSync(keyFile)
    renameSync(`${keyFile}.aside`, keyFile)
    expect((await onDemand.collect(request(fixture('02-status-heartbeat')))).kind).toBe('stored')
    expect(hostCount()).toBe(1)
  })

  it('closes at once when no message came', async () => {
    await onDemand.close()
    expect(workerOf(onDemand)).toBeUndefined()
    expect((await onDemand.collect(request(fixture('02-status-heartbeat')))).kind).toBe('failed')
  })
})
