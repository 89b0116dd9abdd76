// Collector bodies are held under one budget for all agents (issue 26, item 4): slow or many posts with
// the agents' password cannot make the server hold more, and what they held is given back when the
// request timeout closes them. Over real sockets, with a 64 KiB budget and a 1.5-second timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postCollector } from '../../support/collector-client'
import { asAgent, fixture } from '../../support/fixtures'
import { ADMIN, COLLECTOR, startTestServer, type TestServer } from '../../support/in-process-server'
import { openRaw, requestHead } from '../../support/raw-socket'

const BUDGET = 64 * 1024
const auth = `${COLLECTOR.user}:${COLLECTOR.password}`

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({
    collectorLimits: { maxBodyBytesInFlight: BUDGET },
    httpLimits: { headersTimeoutMs: 1000, requestTimeoutMs: 1500 }
  })
})
afterAll(() => server.stopAndClean())

/** What /metrics says the collector holds now. */
async function bodyBytesInFlight(): Promise<number> {
  const res = await fetch(`${server.baseUrl}/metrics`, {
    headers: { Authorization: `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}` }
  })
  return Number(/^overseer_collector_body_bytes_in_flight (\d+)$/m.exec(await res.text())?.[1])
}

async function heldAtLeast(bytes: number): Promise<void> {
  while ((await bodyBytesInFlight()) < bytes) await new Promise((r) => setTimeout(r, 20))
}

/** A post that sends its head and `start` of its body, the rest never. */
const slowPost = (length: number, headers: Record<string, string | number> = { 'Content-Length': length }, start = '<monit') =>
  openRaw(
    server.port,
    requestHead('POST', '/collector', { Authorization: `Basic ${Buffer.from(auth).toString('base64')}`, ...headers }) + start
  )

describe('POST /collector under a budget of bytes in flight', () => {
  it('answers 503 unread to a body past the budget while others hold it, stores heartbeats meanwhile, and frees it after the timeout', async () => {
    const holders = await Promise.all([slowPost(30 * 1024), slowPost(20 * 1024)])
    // Both are admitted (50 KiB of 64): the server waits for the rest of their bodies.
    await heldAtLeast(50 * 1024)
    expect(await bodyBytesInFlight()).toBe(50 * 1024)
    for (const h of holders) expect(h.received()).toBe('')

    const refused = await slowPost(20 * 1024)
    await refused.receivedText('}')
    expect(refused.received()).toMatch(/^HTTP\/1\.1 503 /)
    expect(refused.received()).toContain('the collector is busy with other messages: try again later')

    // A real heartbeat (7 KB) fits beside them.
    expect((await postCollector(server.baseUrl, asAgent(fixture('02-status-heartbeat'), 'dddd' + '0'.repeat(28)), { auth })).status).toBe(
      200
    )

    await Promise.all(holders.map((h) => h.closed))
    expect(await bodyBytesInFlight()).toBe(0)
    // Their 50 KiB are free again: a body of 60 KiB is read whole (and refused for what it is).
    const res = await postCollector(server.baseUrl, 'x'.repeat(60 * 1024), { auth })
    expect(res.status).toBe(400)
  })

  it('holds a chunked body chunk by chunk, refusing it once it passes the budget beside another', async () => {
    const holder = await slowPost(50 * 1024)
    await heldAtLeast(50 * 1024)
    const chunked = await slowPost(0, { 'Transfer-Encoding': 'chunked' }, '')
    const chunk = 'x'.repeat(8 * 1024)
    chunked.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
    chunked.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
    await chunked.receivedText('}')
    expect(chunked.received()).toMatch(/^HTTP\/1\.1 503 /)
    chunked.socket.destroy()
    holder.socket.destroy()
  })

  it('still takes one message alone whatever the budget', async () => {
    const alone = await startTestServer({ collectorLimits: { maxBodyBytesInFlight: 1024 } })
    try {
      expect((await postCollector(alone.baseUrl, asAgent(fixture('02-status-heartbeat'), 'eeee' + '0'.repeat(28)), { auth })).status).toBe(
        200
      )
    } finally {
      await alone.stopAndClean()
    }
  })
})
