// One agent cannot stall the others: messages past the collector's limits are refused early and
// cheaply, over real HTTP, with the server's default limits.
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultCollectorLimits } from '../../../src/server/collector/request-body'
import { postCollector } from '../../support/collector-client'
import { asAgent, fixture } from '../../support/fixtures'
import { largeHeartbeat, serviceName, type LargeMessageShape } from '../../support/large-messages'
import { startTestServer, type TestServer } from '../../support/in-process-server'
import { shiftTime } from '../../support/payloads'

const COLLECTOR = 'monit:collect0r'
const BIG_AGENT = 'b16a' + '0'.repeat(28)
const OTHER_AGENT = '07e4' + '0'.repeat(28)
const { maxServices, maxStatistics, maxXmlBytes } = defaultCollectorLimits
let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.stopAndClean())

const post = (xml: Buffer | string) => postCollector(server.baseUrl, gzipSync(xml), { auth: COLLECTOR, gzip: true })

function servicesOf(agentId: string): string[] {
  return (
    server.store.sql.plain
      .prepare('SELECT s.name FROM service s JOIN host h ON h.id = s.host_id WHERE h.agent_id = ? ORDER BY s.position')
      .all(agentId) as { name: string }[]
  ).map((r) => r.name)
}

const statisticCount = (): number => (server.store.sql.plain.prepare('SELECT COUNT(*) AS n FROM statistic').get() as { n: number }).n

let polls = 0
/** A normal heartbeat of another agent, each one a newer poll, stored. */
async function heartbeat(): Promise<void> {
  const res = await post(shiftTime(asAgent(fixture('02-status-heartbeat'), OTHER_AGENT), 30 * ++polls))
  expect(res.status).toBe(200)
}

/** Posts `body` and, until it is answered, heartbeats of another agent one after the other. */
async function heartbeatsDuring(body: Buffer): Promise<Awaited<ReturnType<typeof post>>> {
  let answered = false
  const answer = post(body).finally(() => (answered = true))
  do await heartbeat()
  while (!answered)
  return answer
}

// Megabytes of XML and thousands of statements a message: on PostgreSQL beside the rest of the suite on
// two cores, a test took past the default 20 s.
describe('POST /collector bounds what one message may cost', { timeout: 60_000 }, () => {
  it(`stores a large message within the limits (${maxServices} services, ${maxServices * 21} statistics)`, async () => {
    const shape: LargeMessageShape = { services: maxServices, portTestsPerService: 20, serviceGroupMembers: maxServices }
    const before = statisticCount()
    const res = await post(largeHeartbeat(BIG_AGENT, shape))
    expect(res.status).toBe(200)
    expect(servicesOf(BIG_AGENT)).toHaveLength(maxServices)
    expect(statisticCount() - before).toBe(maxServices * 21)
  })

  // What other agents wait meanwhile: npm run bench -- bursts.
  it("refuses a message over the service limit with 413 and stores nothing of it, other agents' heartbeats stored meanwhile", async () => {
    const stored = servicesOf(BIG_AGENT)
    // 25,000 new services: about 6.9 MB of XML, inside the XML limit; storing it took seconds.
    const answer = await heartbeatsDuring(largeHeartbeat(BIG_AGENT, { services: 25_000 }))
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body)).toEqual({ error: `message too large: more than ${maxServices} services in one message` })
    expect(servicesOf(BIG_AGENT)).toEqual(stored)
  })

  it('refuses a message over the statistics limit with 413 and stores nothing of it', async () => {
    const before = statisticCount()
    const res = await post(largeHeartbeat(BIG_AGENT, { services: 100, portTestsPerService: maxStatistics / 100 }))
    expect(res.status).toBe(413)
    expect(JSON.parse(res.body)).toEqual({ error: `message too large: more than ${maxStatistics} statistics in one message` })
    expect(statisticCount()).toBe(before)
    expect(servicesOf(BIG_AGENT)).toHaveLength(maxServices)
  })

  it('refuses a message with too many service-group members with 413 and stores nothing of it', async () => {
    const res = await post(largeHeartbeat(BIG_AGENT, { services: 10, serviceGroupMembers: maxServices + 1 }))
    expect(res.status).toBe(413)
    expect(JSON.parse(res.body)).toEqual({ error: `message too large: more than ${maxServices} service-group members in one message` })
    expect(servicesOf(BIG_AGENT)[0]).toBe(serviceName(1))
    expect(servicesOf(BIG_AGENT)).toHaveLength(maxServices)
  })

  it(`refuses more than ${maxXmlBytes / 2 ** 20} MiB of XML with 413 before parsing it`, async () => {
    // 100,000 services in about 27 MB of XML and 600 KB of gzip, the size the issue reported.
    const res = await post(largeHeartbeat('c0de' + '0'.repeat(28), { services: 100_000 }))
    expect(res.status).toBe(413)
    expect(JSON.parse(res.body)).toEqual({ error: `decompressed body exceeds ${maxXmlBytes} bytes` })
    expect(servicesOf('c0de' + '0'.repeat(28))).toEqual([])
  })
})
