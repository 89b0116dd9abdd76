// The pull job over a real store and the collector's ingest (issue 30 §1), against a Monit httpd stand-in on
// loopback that serves fixture 02 as its status over HTTPS: the certificate is pinned at the first answer and
// another one is refused before the credentials are sent; an agent whose host receives pushes is no longer
// pulled; polls waiting on agents are bounded. Real agents: test/integration/pulled-agents.test.ts.
import { once } from 'node:events'
import https from 'node:https'
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collectMessages } from '../../../src/server/collector/collect-message'
import { impliedEvents } from '../../../src/server/domain/pulled-events'
import { MAX_IN_FLIGHT, PullJob } from '../../../src/server/jobs/pull-job'
import type { Logger } from '../../../src/server/log'
import { EventState } from '../../../src/shared/codes'
import { selfSigned, type SelfSigned } from '../../support/certificates'
import { asAgent, fixture } from '../../support/fixtures'
import { shiftTime } from '../../support/payloads'
import { callsAsTheServerMakes, closeJobsThreads } from '../../support/jobs-thread-calls'
import { tempStore, type TempStore } from '../../support/temp-store'

const AGENT = 'c0ffee00000000000000000000000001'
const AUTH = `Basic ${Buffer.from('admin:agent-pw').toString('base64')}`

let t: TempStore
let job: PullJob
let lines: string[]
let clockMs: number
let agent: https.Server
let cert: SelfSigned
/** Requests that reached the stand-in with the credentials. */
let authorized: number

/** The fixture as agent AGENT, collected `secondsOn` after the clock's time. */
const statusXml = (secondsOn = 0) =>
  shiftTime(asAgent(fixture('02-status-heartbeat'), AGENT, 'pulled-1'), Math.floor(clockMs / 1000) - 1795300306 + secondsOn)

beforeEach(async () => {
  t = tempStore()
  lines = []
  clockMs = Date.now()
  authorized = 0
  cert = selfSigned()
  agent = https.createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    if (req.headers.authorization !== AUTH) return void res.writeHead(401).end()
    authorized++
    res.writeHead(200, { 'Content-Type': 'text/xml' }).end(statusXml())
  })
  agent.listen(0, '127.0.0.1')
  await once(agent, 'listening')
  const log: Logger = { info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) }
  job = new PullJob(
    callsAsTheServerMakes(t.store, 'pulledAgents'),
    t.secrets,
    async (request) => collectMessages(t.ingest, [request])[0],
    { log },
    () => clockMs
  )
})
afterEach(async () => {
  job.stop()
  await closeJobsThreads()
  agent.close()
  t.close()
})

function addPulled(port: number, password = 'agent-pw'): number {
  return t.store.pulledAgents.create({
    address: '127.0.0.1',
    port,
    ssl: true,
    username: 'admin',
    password: t.secrets.seal(password),
    pollSec: 30,
    createdAt: Math.floor(clockMs / 1000)
  })!
}
const pulled = () => t.store.pulledAgents.list()
const poll = async () => Promise.all(await job.startDue())

describe('pull job', () => {
  it("stores the agent's status as its host, pins its certificate, and refuses another before sending the credentials", async () => {
    addPulled((agent.address() as AddressInfo).port)
    await poll()
    expect(pulled()[0]).toMatchObject({ agent_id: AGENT, certificate_sha256: cert.sha256, error: null, hostname: 'pulled-1' })
    const port = (agent.address() as AddressInfo).port
    // Called back (service actions) where and as it is pulled, pinned as an administrator's settings are.
    expect(
      t.store.sql.rows(
        'SELECT poll, ipaddr_in, port_in, ssl_in, agent_user, credentials_pinned, agent_cert_sha256 FROM host WHERE agent_id = ?',
        [AGENT]
      )
    ).toEqual([
      {
        poll: 30,
        ipaddr_in: '127.0.0.1',
        port_in: port,
        ssl_in: 1,
        agent_user: 'admin',
        credentials_pinned: 1,
        agent_cert_sha256: cert.sha256
      }
    ])
    expect(authorized).toBe(1)

    // Not due before its poll interval.
    clockMs += 10_000
    await poll()
    expect(authorized).toBe(1)

    const other = selfSigned('impostor')
    agent.setSecureContext({ key: other.key, cert: other.cert })
    clockMs += 30_000
    await poll()
    expect(authorized).toBe(1)
    expect(pulled()[0].error).toMatch(/certificate/i)
    expect(pulled()[0].certificate_sha256).toBe(cert.sha256)
    expect(lines.filter((l) => l.startsWith('pull from 127.0.0.1'))).toHaveLength(1)
  })

  it('wrong credentials: the poll fails with them named, and stores nothing', async () => {
    addPulled((agent.address() as AddressInfo).port, 'wrong')
    await poll()
    expect(pulled()[0].error).toMatch(/401|credentials|password/i)
    expect(t.store.sql.rows('SELECT id FROM host')).toEqual([])
  })

  it('an agent whose host took a pushed report since the last poll is no longer pulled: one host, a log line', async () => {
    addPulled((agent.address() as AddressInfo).port)
    await poll()
    t.post(statusXml(5), clockMs + 5000)
    clockMs += 30_000
    await poll()
    expect(pulled()).toEqual([])
    expect(t.store.sql.rows('SELECT agent_id FROM host')).toEqual([{ agent_id: AGENT }])
    expect(lines).toContainEqual(expect.stringMatching(/now pushes its reports; it is no longer pulled/))
  })

  it('polls waiting on agents are bounded: a silent fleet holds at most MAX_IN_FLIGHT at once', async () => {
    // Accepts connections and never answers: each poll waits out its timeout.
    const silent = net.createServer(() => {})
    silent.listen(0, '127.0.0.1')
    await once(silent, 'listening')
    const sockets: net.Socket[] = []
    silent.on('connection', (s) => sockets.push(s))
    try {
      const port = (silent.address() as AddressInfo).port
      for (let i = 0; i < MAX_IN_FLIGHT + 4; i++) {
        // Distinct agents on one port: each row its own address on 127/8.
        t.store.pulledAgents.create({
          address: `127.0.0.${i + 2}`,
          port,
          ssl: false,
          username: '',
          password: t.secrets.seal(''),
          pollSec: 30,
          createdAt: 0
        })
      }
      const first = await job.startDue()
      expect(first).toHaveLength(MAX_IN_FLIGHT)
      expect(await job.startDue()).toHaveLength(0)
      for (const s of sockets) s.destroy()
      await Promise.all(first)
      expect(await job.startDue()).toHaveLength(4)
    } finally {
      for (const s of sockets) s.destroy()
      silent.close()
    }
  })
})

describe('implied events', () => {
  const service = (status: number, monitor = 1) => ({ name: 'www', type: 3, status, monitor, collectedSec: 100, collectedUsec: 5 })
  it('a class bit gained is a failure in Monit words, one lost a recovery; new or unmonitored services imply none', () => {
    expect(impliedEvents(new Map([['www', 0]]), [service(512 | 32)]).map((e) => [e.cls, e.state, e.message])).toEqual([
      [32, EventState.Failed, 'Connection failed'],
      [512, EventState.Failed, 'Does not exist']
    ])
    expect(impliedEvents(new Map([['www', 512]]), [service(0)])).toEqual([
      { service: 'www', serviceType: 3, cls: 512, state: EventState.Succeeded, message: 'Exists', collectedSec: 100, collectedUsec: 5 }
    ])
    expect(impliedEvents(new Map(), [service(512)])).toEqual([])
    expect(impliedEvents(new Map([['www', 512]]), [service(0, 0)])).toEqual([])
  })
})
