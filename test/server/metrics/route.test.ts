// /metrics over real HTTP: parsed back with a strict reader of the text format, then checked by name,
// labels and value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Permission } from '../../../src/shared/codes'
import { postCollector } from '../../support/collector-client'
import { asAgent, fixture } from '../../support/fixtures'
import { startTestServer, type TestServer } from '../../support/in-process-server'
import { addUserWith } from '../../support/users'

interface ParsedSample {
  name: string
  labels: Record<string, string>
  value: number
}
interface Parsed {
  help: Map<string, string>
  type: Map<string, string>
  samples: ParsedSample[]
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*'
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)$`)
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/
const VALUE = /^(?:[+-]?(?:\d+\.?\d*(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?)|NaN|[+-]Inf)$/i

/** Throws on anything that is not well-formed exposition text. */
function parseExposition(text: string): Parsed {
  const parsed: Parsed = { help: new Map(), type: new Map(), samples: [] }
  expect(text.endsWith('\n')).toBe(true)
  for (const line of text.slice(0, -1).split('\n')) {
    const meta = new RegExp(`^# (HELP|TYPE) (${NAME}) (.*)$`).exec(line)
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string]
      const into = kind === 'HELP' ? parsed.help : parsed.type
      if (into.has(name)) throw new Error(`second ${kind} for ${name}`)
      if (kind === 'TYPE' && !['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(rest)) throw new Error(line)
      into.set(name, rest)
      continue
    }
    const match = SAMPLE.exec(line)
    if (!match) throw new Error(`not a sample line: ${line}`)
    const [, name, labelText = '', value] = match as unknown as [string, string, string | undefined, string]
    if (!VALUE.test(value)) throw new Error(`bad value: ${line}`)
    const labels: Record<string, string> = {}
    let rest = labelText
    while (rest.length) {
      const label = LABEL.exec(rest)
      if (!label) throw new Error(`bad labels: ${line}`)
      const [whole, key, raw] = label as unknown as [string, string, string]
      if (key in labels) throw new Error(`repeated label ${key}: ${line}`)
      labels[key] = raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
      rest = rest.slice(whole.length)
    }
    parsed.samples.push({ name, labels, value: Number(value.replace(/Inf/i, 'Infinity')) })
  }
  // Every sample belongs to a family announced with HELP and TYPE (histogram samples by their suffix).
  for (const s of parsed.samples) {
    const family = parsed.type.has(s.name) ? s.name : s.name.replace(/_(bucket|sum|count)$/, '')
    if (!parsed.type.has(family) || !parsed.help.has(family)) throw new Error(`no HELP/TYPE for ${s.name}`)
  }
  const series = parsed.samples.map((s) => `${s.name}${JSON.stringify(Object.entries(s.labels).sort())}`)
  expect(new Set(series).size).toBe(series.length)
  return parsed
}

const basic = (creds: string) => ({ Authorization: `Basic ${Buffer.from(creds).toString('base64')}` })
const scrape = (server: TestServer, headers: Record<string, string> = basic('admin:adminsecret')) =>
  fetch(`${server.baseUrl}/metrics`, { headers })

function find(parsed: Parsed, name: string, labels: Record<string, string>): ParsedSample[] {
  return parsed.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
}
function valueOf(parsed: Parsed, name: string, labels: Record<string, string> = {}): number {
  const hits = find(parsed, name, labels)
  expect(hits, `${name} ${JSON.stringify(labels)}`).toHaveLength(1)
  return hits[0]!.value
}

const hostId = (server: TestServer, name: string) =>
  (server.store.sql.plain.prepare('SELECT id FROM host WHERE hostname = ?').get(name) as { id: number }).id

describe('GET /metrics', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
    for (const [id, name] of [
      ['aaaa00000000000000000000000000a1', 'alpha'],
      ['bbbb00000000000000000000000000b2', 'be"ta\\x']
    ]) {
      const res = await postCollector(server.baseUrl, asAgent(fixture('02-status-heartbeat'), id!, name), { auth: 'monit:collect0r' })
      expect(res.status).toBe(200)
    }
    addUserWith(server.store, 'alphaviewer', Permission.View, { hosts: [hostId(server, 'alpha')] })
    addUserWith(server.store, 'collectoronly', Permission.Collector, { hosts: [] })
  })
  afterAll(() => server.stopAndClean())

  it('serves valid exposition text with host, service and statistic series', async () => {
    const res = await scrape(server)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    const parsed = parseExposition(await res.text())

    const alpha = { host: 'alpha', host_id: String(hostId(server, 'alpha')) }
    expect(valueOf(parsed, 'overseer_host_up', alpha)).toBe(1)
    expect(valueOf(parsed, 'overseer_host_status', alpha)).toBe(0)
    expect(valueOf(parsed, 'overseer_host_cpu_percent', alpha)).toBe(47.1)
    expect(valueOf(parsed, 'overseer_host_memory_percent', alpha)).toBe(3.3)
    // One red service (deadport) makes the host orange.
    expect(valueOf(parsed, 'overseer_host_led', alpha)).toBe(1)
    // Status reports only: no event yet (the next test adds one).
    expect(valueOf(parsed, 'overseer_host_events_total', alpha)).toBe(0)
    expect(valueOf(parsed, 'overseer_service_failing', { ...alpha, service: 'deadport', type: 'Remote Host' })).toBe(1)
    expect(valueOf(parsed, 'overseer_service_led', { ...alpha, service: 'deadport' })).toBe(0)
    expect(valueOf(parsed, 'overseer_service_failing', { ...alpha, service: 'sleeper', type: 'Process' })).toBe(0)
    expect(valueOf(parsed, 'overseer_service_monitored', { ...alpha, service: 'sleeper' })).toBe(1)
    expect(valueOf(parsed, 'overseer_statistic', { ...alpha, service: 'rootfs', type: 'SpacePercent', descriptor: '' })).toBe(8.8)
    expect(valueOf(parsed, 'overseer_statistic', { ...alpha, service: 'agent1-host', type: 'CpuUser' })).toBe(43.9)
    // Text-only statistics have no number to export.
    expect(find(parsed, 'overseer_statistic', { type: 'FilesystemType' })).toEqual([])
    expect(find(parsed, 'overseer_statistic', { type: 'ProgramOutput' })).toEqual([])
    // Every series carries exactly the documented labels.
    for (const s of find(parsed, 'overseer_statistic', {})) {
      expect(Object.keys(s.labels).sort()).toEqual(['descriptor', 'host', 'host_id', 'service', 'type'])
    }
    // A name with a quote and a backslash survives the round trip.
    expect(valueOf(parsed, 'overseer_host_up', { host: 'be"ta\\x' })).toBe(1)

    expect(valueOf(parsed, 'overseer_collector_messages_total')).toBe(2)
    expect(valueOf(parsed, 'overseer_collector_ingest_seconds_count')).toBe(2)
    expect(valueOf(parsed, 'overseer_collector_ingest_seconds_bucket', { le: '+Inf' })).toBe(2)
    expect(valueOf(parsed, 'overseer_collector_ingest_seconds_sum')).toBeGreaterThan(0)
    expect(valueOf(parsed, 'overseer_collector_messages_per_second')).toBeCloseTo(2 / 60)
    expect(valueOf(parsed, 'overseer_database_bytes')).toBeGreaterThan(4096)
    for (const name of ['overseer_host_up', 'overseer_statistic', 'overseer_collector_ingest_seconds', 'overseer_database_bytes']) {
      expect(parsed.help.has(name) && parsed.type.has(name)).toBe(true)
    }
    expect(parsed.type.get('overseer_collector_ingest_seconds')).toBe('histogram')
    expect(parsed.type.get('overseer_collector_messages_total')).toBe('counter')
  })

  it('counts later posts, and the event one carries', async () => {
    const res = await postCollector(
      server.baseUrl,
      asAgent(fixture('03-event-process-not-running'), 'aaaa00000000000000000000000000a1', 'alpha'),
      { auth: 'monit:collect0r' }
    )
    expect(res.status).toBe(200)
    const parsed = parseExposition(await (await scrape(server)).text())
    expect(valueOf(parsed, 'overseer_collector_messages_total')).toBe(3)
    expect(valueOf(parsed, 'overseer_host_events_total', { host: 'alpha' })).toBe(1)
    expect(valueOf(parsed, 'overseer_host_events_total', { host: 'be"ta\\x' })).toBe(0)
  })

  it('answers 401 with a Basic challenge without or with wrong credentials', async () => {
    for (const headers of [{}, basic('admin:wrong')]) {
      const res = await scrape(server, headers)
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="metrics"')
    }
  })

  it('answers 401 with a Bearer challenge to an API token not valid (test/api/api-tokens.test.ts has valid ones)', async () => {
    const res = await scrape(server, { Authorization: 'Bearer x' })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer')
  })

  it('answers 403 to a user who may view no host', async () => {
    expect((await scrape(server, basic('collectoronly:collectoronly-secret'))).status).toBe(403)
  })

  it('shows a viewer of one host only that host', async () => {
    const res = await scrape(server, basic('alphaviewer:alphaviewer-secret'))
    expect(res.status).toBe(200)
    const parsed = parseExposition(await res.text())
    const hosts = new Set(parsed.samples.filter((s) => s.labels.host !== undefined).map((s) => s.labels.host))
    expect([...hosts]).toEqual(['alpha'])
    expect(find(parsed, 'overseer_service_led', {}).length).toBeGreaterThan(0)
  })
})

describe('GET /metrics disabled by setting', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ metrics: false })
  })
  afterAll(() => server.stopAndClean())

  it('answers 404', async () => {
    expect((await scrape(server)).status).toBe(404)
    expect((await scrape(server, {})).status).toBe(404)
  })
})
