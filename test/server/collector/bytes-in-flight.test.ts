import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LARGE_MESSAGE_BYTES } from '../../../src/server/collector/next-batch'
import { XmlInFlight } from '../../../src/server/collector/bytes-in-flight'
import { postCollector } from '../../support/collector-client'
import { asAgent, fixture } from '../../support/fixtures'
import { startTestServer, type TestServer } from '../../support/in-process-server'
import { largeHeartbeat } from '../../support/large-messages'

const LARGE = LARGE_MESSAGE_BYTES + 1

describe('XmlInFlight', () => {
  it('takes a large message alone whatever its size, and none past the bound beside it', () => {
    const inFlight = new XmlInFlight(3 * LARGE)
    const first = inFlight.claim(10 * LARGE)
    expect(first).toBeTypeOf('function')
    expect(inFlight.claim(LARGE)).toBeUndefined()
    first!()
    expect(inFlight.claim(LARGE)).toBeTypeOf('function')
    expect(inFlight.claim(LARGE)).toBeTypeOf('function')
    expect(inFlight.claim(LARGE)).toBeTypeOf('function')
    expect(inFlight.claim(LARGE)).toBeUndefined()
  })

  it('always takes normal messages, even past the bound', () => {
    const inFlight = new XmlInFlight(LARGE)
    inFlight.claim(10 * LARGE)
    expect(inFlight.claim(LARGE_MESSAGE_BYTES)).toBeTypeOf('function')
  })
})

describe('POST /collector with large messages in flight', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ collectorLimits: { maxXmlBytesInFlight: 2 ** 20 } })
  })
  afterAll(() => server.stopAndClean())

  const post = (xml: Buffer) => postCollector(server.baseUrl, gzipSync(xml), { auth: 'monit:collect0r', gzip: true })

  it('answers 503 to a large message past the bound, still stores heartbeats, and takes it once the others are done', async () => {
    // About 4.4 MB of XML, storing 2,000 new services: many times longer than gunzipping the other.
    const aXml = largeHeartbeat('aaaa' + '0'.repeat(28), { services: 2000, portTestsPerService: 20 })
    const bXml = largeHeartbeat('bbbb' + '0'.repeat(28), { services: 1000 })
    expect(bXml.length).toBeGreaterThan(LARGE_MESSAGE_BYTES)
    // Posted together: the one claimed second finds the other still in flight, however fast the machine.
    const [a, b, heartbeat] = await Promise.all([
      post(aXml),
      post(bXml),
      post(asAgent(fixture('02-status-heartbeat'), 'cccc' + '0'.repeat(28)))
    ])
    // Whichever of the two large ones came second is refused.
    expect([a.status, b.status].sort()).toEqual([200, 503])
    const refused = a.status === 503 ? a : b
    expect(JSON.parse(refused.body)).toEqual({ error: 'the collector is busy with other large messages: try again later' })
    expect(heartbeat.status).toBe(200)
    expect((await post(bXml)).status).toBe(200)
  })
})
