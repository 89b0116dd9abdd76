// What slow clients can make the server hold (issue 26, item 4). Against the built server, with a
// 5-second headers and 10-second request timeout (through the environment, which a build without
// them ignores), it prints the server's RSS idle, while clients hold their requests open, and after:
//   1. BENCH_SLOW_CONNECTIONS (1,000) unauthenticated login forms announcing 1 MiB, all but the last
//      byte sent, from 8 loopback addresses (the cap per address is 256);
//   2. BENCH_SLOW_COLLECTOR_POSTS (200) collector posts with the agents' password, announcing 4 MiB
//      and sending 1 MiB of it.
// Clients still open BENCH_SLOW_HOLD_SECONDS (15) after their last write are closed by the benchmark
// itself (a server without timeouts never closes them). No target: the figures go to docs/performance.md.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { removeDir, startBuiltServer, type BuiltServer } from '../test/support/built-server'
import { openRaw, requestHead, type RawConnection } from '../test/support/raw-socket'
import { envInt, int, mib, printRows, processMemory, type Benchmark } from './support'

const ADDRESSES = 8
const SETTLE_MS = 3000
const COLLECTOR = 'bench:benchpass1'

export const slowClientsBenchmark: Benchmark = {
  name: 'slow-clients',
  description: "many slow, partial requests vs. the server's RSS and what it holds after they close",
  run: runSlowClientsBenchmark
}

async function runSlowClientsBenchmark(): Promise<void> {
  const connections = envInt('BENCH_SLOW_CONNECTIONS', 1000)
  const posts = envInt('BENCH_SLOW_COLLECTOR_POSTS', 200)
  const holdMs = envInt('BENCH_SLOW_HOLD_SECONDS', 15) * 1000
  const loginHead = requestHead('POST', '/z_security_check', {
    'Content-Type': 'application/x-www-form-urlencoded',
    'Content-Length': 2 ** 20
  })
  await phase(`${int(connections)} login forms, 1 MiB announced, all but 1 byte sent`, connections, loginHead, 2 ** 20 - 1, holdMs)
  const collectorHead = requestHead('POST', '/collector', {
    Authorization: `Basic ${Buffer.from(COLLECTOR).toString('base64')}`,
    'Content-Type': 'text/xml',
    'Content-Length': 4 * 2 ** 20
  })
  await phase(`${int(posts)} collector posts, 4 MiB announced, 1 MiB sent`, posts, collectorHead, 2 ** 20, holdMs)
}

/**
 * On a fresh server, opens `count` connections that send `head` and `bodyBytes` of body, then prints
 * what the server held while they were open and after they closed.
 */
async function phase(title: string, count: number, head: string, bodyBytes: number, holdMs: number): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'overseer-bench-slow-'))
  const server = await startBuiltServer({
    dataDir,
    args: ['--init-collector', COLLECTOR],
    env: { OVERSEER_HEADERS_TIMEOUT: '5', OVERSEER_REQUEST_TIMEOUT: '10' }
  })
  try {
    await sleep(SETTLE_MS)
    const idle = rss(server)
    const body = Buffer.alloc(bodyBytes, 'a')
    const clients = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const c = await openRaw(server.port, head, `127.0.0.${1 + (i % ADDRESSES)}`)
        await Promise.race([new Promise((sent) => c.socket.write(body, sent)), c.closed])
        return c
      })
    )
    // The server reads what the kernel buffered for it meanwhile; the timeouts are 5 and 10 s away.
    await sleep(2000)
    const held = rss(server)
    const answered = countBy(clients.map((c) => /^HTTP\/1\.1 (\d+)/.exec(c.received())?.[1] ?? 'none'))
    const closedByServer = await closedWithin(clients, holdMs)
    for (const c of clients) c.socket.destroy()
    await sleep(SETTLE_MS)
    console.log(`\n${title}:`)
    printRows([
      ['server RSS idle', mib(idle)],
      ['server RSS 2 s after all sent', mib(held)],
      [`server RSS ${SETTLE_MS / 1000} s after all closed`, mib(rss(server))],
      ['server peak RSS', mib(processMemory(server.child.pid!)?.peakRss ?? Number.NaN)],
      ['answers to the clients', answered],
      [`closed by the server within ${holdMs / 1000} s`, int(closedByServer)]
    ])
  } finally {
    await server.stop()
    removeDir(dataDir)
  }
}

function closedWithin(clients: readonly RawConnection[], ms: number): Promise<number> {
  let closed = 0
  for (const c of clients) void c.closed.then(() => closed++)
  const deadline = performance.now() + ms
  return new Promise((done) => {
    const check = setInterval(() => {
      if (closed < clients.length && performance.now() < deadline) return
      clearInterval(check)
      done(closed)
    }, 100)
  })
}

function countBy(values: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  return [...counts].map(([v, n]) => `${int(n)} × ${v}`).join(', ')
}

function rss(server: BuiltServer): number {
  return processMemory(server.child.pid!)?.rss ?? Number.NaN
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))
