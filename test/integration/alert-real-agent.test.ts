// Alerting end to end with a real Monit 5.33 agent (1 s poll) and a real SMTP server (smtp-server), all on
// 127.0.0.1 (issue 13, "Proof"). The server runs in this process; the channel, the rule and the mute are
// made through the admin API over HTTP, as an administrator would. The agent's sleeper is checked with
// `if does not exist then alert`, so that it stays failed until the test starts it again.
//
// The rule's reminder is in minutes (1 at least): only the delivery job's clock is injected
// (ServerOptions.alertDeliveryNow), moved a minute ahead until the reminder is sent, then back; the
// collector, the watchdog and the agent keep real time.
import type net from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HostStatusEntry } from '../../src/shared/api/status'
import { EventState, Led } from '../../src/shared/codes'
import { loginAs, type ApiClient } from '../support/api-client'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { startAgents, type AgentFleet, type RunningAgent } from '../support/monit-agents'
import { waitFor } from '../support/wait'
import { header, partBody } from '../support/mail-message'

const GROUP_WAIT_SEC = 2
/** The agent's poll, and the delivery job's pass. */
const CYCLE_MS = 1000
/** Group wait + a few seconds: the agent's 1 s cycle, the job's 1 s pass, the SMTP session. */
const DEADLINE_MS = GROUP_WAIT_SEC * 1000 + 4000
/**
 * How long the test listens for more after each expected message, to prove there is none: one made of
 * the agent's next report would be sent after the group wait, at the job's next pass.
 */
const QUIET_MS = CYCLE_MS + GROUP_WAIT_SEC * 1000 + CYCLE_MS

interface Mail {
  at: number
  from: string
  to: string[]
  subject: string
  body: string
  html: string
  raw: string
}

let server: TestServer
let fleet: AgentFleet
let agent: RunningAgent
let admin: ApiClient
let smtp: SMTPServer
let smtpPort: number
const mails: Mail[] = []
/** Added to the delivery job's clock only. */
let jobClockOffsetMs = 0

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

beforeAll(async () => {
  smtp = new SMTPServer({
    logger: false,
    disableReverseLookup: true,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, cb) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        mails.push({
          at: Date.now(),
          raw,
          subject: header(raw, 'Subject') ?? '',
          body: partBody(raw, 'text/plain') ?? '',
          html: partBody(raw, 'text/html') ?? '',
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address)
        })
        cb(null, 'queued')
      })
    }
  })
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject)
    smtp.listen(0, '127.0.0.1', () => resolve())
  })
  smtpPort = (smtp.server.address() as net.AddressInfo).port
  server = await startTestServer({ alertDeliveryNow: () => Date.now() + jobClockOffsetMs })
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
  fleet = await startAgents({
    collectorUrl: `http://monit:collect0r@127.0.0.1:${server.port}/collector`,
    count: 1,
    namePrefix: 'mail',
    sleeperOnFailure: 'alert'
  })
  agent = fleet.agents[0]
}, 30_000)

afterAll(async () => {
  await fleet?.shutdown()
  await server?.stopAndClean()
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()))
})

async function hostIdIfListed(): Promise<number | undefined> {
  const list = (await admin.get('/api/2/status/hosts/list')).json as { records: HostStatusEntry[] }
  return list.records.find((h) => h.hostname === agent.name)?.id
}

async function hostId(): Promise<number> {
  const id = await hostIdIfListed()
  if (id === undefined) throw new Error(`${agent.name} is not listed`)
  return id
}

/** The sleeper's LED as the server shows it (status/hosts/get): 0 red, 2 green. */
async function sleeperLed(): Promise<number | undefined> {
  const detail = (await admin.get('/api/2/status/hosts/get', { id: await hostId() })).json as {
    records: { host: { services: { name: string; led: number }[] } }
  }
  return detail.records.host.services.find((s) => s.name === 'sleeper')?.led
}

const count = (sql: string, ...values: unknown[]) => Number((server.store.sql.plain.prepare(sql).get(...values) as { n: number }).n)

/** Polls the server until the sleeper shows `led`. */
async function untilSleeperLed(led: number, what: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; (await sleeperLed()) !== led; await sleep(100)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
  }
}

/** Waits for the `n`-th e-mail, then listens QUIET_MS more: nothing else may come. */
async function expectMails(n: number, what: string, since: number): Promise<Mail> {
  await waitFor(what, () => mails.length >= n, DEADLINE_MS + 2000, 20)
  const mail = mails[n - 1]
  await sleep(QUIET_MS)
  expect(mails.map((m) => m.subject)).toHaveLength(n)
  console.log(`real agent → e-mail: ${what} after ${mail.at - since} ms`)
  return mail
}

describe('alerting with a real Monit agent and a real SMTP server', { timeout: 40_000 }, () => {
  it('is configured through the admin API once the agent reports its sleeper running', async () => {
    // The agent starts without a sleeper (alert, no restart): `monit start sleeper`, then wait until the
    // server has it running.
    for (const deadline = Date.now() + 10_000; !(await hostIdIfListed()); await sleep(200)) {
      if (Date.now() > deadline) throw new Error(`${agent.name} did not register`)
    }
    await untilSleeperLed(Led.Red, 'the first report of the sleeper (not running: nobody started it)')
    await fleet.startSleeper(agent)
    // Its "process is running" reaches the server before the rule exists.
    await untilSleeperLed(Led.Green, 'the server to show the sleeper running')
    const channel = await admin.post('/api/2/admin/alerts/channels/create', {
      type: 'email',
      name: 'ops mail',
      smtphost: '127.0.0.1',
      smtpport: smtpPort,
      smtpsecurity: 'none',
      from: 'Overseer <overseer@example.com>',
      to: 'ops@example.com'
    })
    expect(channel.status).toBe(200)
    const rule = await admin.post('/api/2/admin/alerts/rules/create', {
      name: 'failures',
      channelid: (channel.json as { id: number }).id,
      state: 1,
      heartbeat: true,
      groupwait: GROUP_WAIT_SEC,
      reminder: 1,
      recovery: true
    })
    expect(rule.status).toBe(200)
    await hostId()
  })

  it('a killed process: exactly one e-mail after the group wait, naming the host and the service', async () => {
    const killedAt = Date.now()
    fleet.killSleeper(agent)
    const mail = await expectMails(1, 'the failure', killedAt)
    expect(mail.at - killedAt).toBeGreaterThanOrEqual(GROUP_WAIT_SEC * 1000 - 1000)
    // In words, in the server's time zone, with a link to the service's page, as text and as HTML.
    expect(mail.subject).toBe(`[Overseer] process sleeper does not exist on ${agent.name}`)
    expect(mail.body).toMatch(new RegExp(`^\\* .+: process sleeper does not exist on ${agent.name}$`, 'm'))
    expect(mail.body).toContain('process is not running')
    expect(mail.body).toMatch(new RegExp(`${server.baseUrl}/#/hosts/\\d+/services/sleeper`))
    expect(mail.html).toMatch(
      new RegExp(`<a href="[^"]+/#/hosts/\\d+/services/sleeper" [^>]*>process sleeper does not exist on ${agent.name}</a>`)
    )
    expect(mail.to).toEqual(['ops@example.com'])
    expect(mail.from).toBe('overseer@example.com')
  })

  it("a reminder while it stays failed (the job's clock a minute ahead)", async () => {
    expect(fleet.sleeperPid(agent)).toBeUndefined()
    const movedAt = Date.now()
    jobClockOffsetMs = 61_000
    const mail = await expectMails(2, 'the reminder', movedAt)
    expect(mail.subject).toBe(`[Overseer] Reminder: process sleeper does not exist on ${agent.name}`)
    expect(mail.body).toContain('process is not running')
    // Back to real time: the next reminder is a minute of real time away, and the group wait counts again.
    jobClockOffsetMs = 0
  })

  it('started again: exactly one recovery e-mail', async () => {
    const startedAt = Date.now()
    await fleet.startSleeper(agent)
    const mail = await expectMails(3, 'the recovery', startedAt)
    expect(mail.at - startedAt).toBeGreaterThanOrEqual(GROUP_WAIT_SEC * 1000 - 1000)
    expect(mail.subject).toBe(`[Overseer] Recovered: process sleeper exists on ${agent.name}`)
    expect(mail.body).toContain(`process sleeper exists on ${agent.name}`)
    expect(mail.body).toContain('process is running')
  })

  it('muted host: killing it again, and its recovery, send nothing', async () => {
    const id = await hostId()
    const mute = await admin.post('/api/2/admin/alerts/mutes/create', {
      hostid: id,
      until: Math.floor(Date.now() / 1000) + 3600,
      reason: 'maintenance'
    })
    expect(mute.status).toBe(200)
    const outboxRows = () => count('SELECT COUNT(*) AS n FROM alert_outbox')
    const [rowsBefore, lastEvent] = [outboxRows(), count('SELECT MAX(id) AS n FROM event')]
    // The sleeper's "does not exist" (class 512) failure and recovery.
    const stored = (state: number) =>
      count(
        `SELECT COUNT(*) AS n FROM event WHERE host_id = ? AND id > ? AND service_name = 'sleeper' AND class = 512 AND state = ?`,
        id,
        lastEvent,
        state
      )
    fleet.killSleeper(agent)
    await untilSleeperLed(Led.Red, 'the server to show the sleeper failed')
    await fleet.startSleeper(agent)
    await untilSleeperLed(Led.Green, 'the server to show the sleeper running again')
    // An event is matched against the rules as it is stored, its outbox rows written in the same
    // transaction: with none written for the failure and the recovery, there is nothing to send.
    await waitFor('the failure and the recovery stored', () => stored(EventState.Failed) > 0 && stored(EventState.Succeeded) > 0)
    expect(outboxRows()).toBe(rowsBefore)
    expect(mails).toHaveLength(3)
    expect((await admin.post('/api/2/admin/alerts/mutes/delete', { id: (mute.json as { id: number }).id })).status).toBe(200)
  })

  it('a dead heartbeat (agent killed with SIGKILL): exactly one "stopped reporting" e-mail, no per-service one', async () => {
    const killedAt = Date.now()
    await fleet.kill(agent)
    // The sleeper outlives its agent; killed now, nobody reports it.
    fleet.killSleeper(agent)
    // Dead after skew 3 × poll 1 s, then the group wait.
    await waitFor('the "stopped reporting" e-mail', () => mails.length >= 4, 3000 + DEADLINE_MS + 2000, 20)
    const mail = mails[3]
    expect(mail.at - killedAt).toBeGreaterThanOrEqual(3000 + GROUP_WAIT_SEC * 1000 - 1000)
    console.log(
      `real agent → e-mail: stopped reporting after ${mail.at - killedAt} ms (skew 3 × poll 1 s + group wait ${GROUP_WAIT_SEC} s)`
    )
    // Proves absence: no second e-mail, and none for the sleeper nobody reports.
    await sleep(QUIET_MS)
    expect(mails).toHaveLength(4)
    expect(mail.subject).toBe(`[Overseer] ${agent.name} stopped reporting`)
    expect(mail.body).toMatch(new RegExp(`^\\* .+: ${agent.name} stopped reporting$`, 'm'))
  })
})
