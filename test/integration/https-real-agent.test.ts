// A real Monit 5.33 agent reporting over HTTPS (issue 26): it pins the server's self-signed certificate
// as the console's agent setup tells it to (`with ssl { verify: enable, cacertificatefile: … }`) and its
// messages are stored; an agent pinning another certificate refuses the server, and nothing of it is stored.
import { writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeSelfSignedCertificate } from '../../src/server/tls/self-signed'
import { SELF_SIGNED_CERT } from '../../src/server/tls/tls-files'
import { hostOfAgent } from '../support/hosts'
import { COLLECTOR, startTestServer, type TestServer } from '../support/in-process-server'
import { startAgents, type AgentFleet } from '../support/monit-agents'
import { waitFor } from '../support/wait'

let server: TestServer
const fleets: AgentFleet[] = []

beforeAll(async () => {
  server = await startTestServer({ tls: { selfSigned: true } })
}, 30_000)

afterAll(async () => {
  for (const fleet of fleets) await fleet.shutdown()
  await server?.stopAndClean()
})

const collectorUrl = () => `https://${COLLECTOR.user}:${COLLECTOR.password}@127.0.0.1:${server.port}/collector`

async function agentPinning(certificate: string, namePrefix: string): Promise<AgentFleet> {
  const file = join(server.dataDir, `${namePrefix}.pem`)
  writeFileSync(file, certificate)
  const fleet = await startAgents({
    collectorUrl: collectorUrl(),
    count: 1,
    namePrefix,
    collectorSsl: `verify: enable, cacertificatefile: ${file}`
  })
  fleets.push(fleet)
  return fleet
}

describe('a real Monit agent and the HTTPS collector', () => {
  it('stores the messages of an agent that verifies the pinned certificate', async () => {
    const certificate = await readFile(join(server.dataDir, SELF_SIGNED_CERT), 'utf8')
    const fleet = await agentPinning(certificate, 'pinned')
    const agent = fleet.agents[0]
    const host = await waitFor('the agent to register over HTTPS', () => hostOfAgent(server.store, agent.id), 20_000)
    expect(host.hostname).toBe(agent.name)
  }, 40_000)

  it('an agent pinning another certificate refuses the server: nothing of it is stored', async () => {
    const stranger = await agentPinning(makeSelfSignedCertificate({ dns: ['localhost'], ips: ['127.0.0.1'] }).cert, 'stranger')
    const agent = stranger.agents[0]
    // Monit logs each failed send to M/Monit; waiting for that line proves it tried (and no fixed sleep).
    const log = join(agent.dir, 'monit.log')
    const refused = async () => {
      const text = await readFile(log, 'utf8').catch(() => '')
      return text.includes('certificate verification error') && text.includes('M/Monit: cannot open a connection')
    }
    await waitFor('the agent to report the refused certificate', refused, 20_000)
    expect(hostOfAgent(server.store, agent.id)).toBeUndefined()
  }, 40_000)
})
