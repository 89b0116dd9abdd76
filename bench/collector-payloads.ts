// The collector benchmark's traffic: real Monit 5.33 payloads, re-addressed to many distinct agents,
// each agent moving forward in time message by message like a running agent does.
import { gunzipSync, gzipSync } from 'node:zlib'
import { asAgent, fixture } from '../test/support/fixtures'

export interface Payload {
  /** The bytes sent on the wire: XML, or gzip of it when `gzip`. */
  body: Buffer
  gzip: boolean
}

interface Kind {
  name: string
  /** The decoded XML template, still carrying the capture's agent id and times. */
  xml: Buffer
  /** Sent gzip-compressed whatever the position (07 is the real gzip capture). */
  alwaysGzip: boolean
}

/** What every agent cycles through: heartbeats plus failure, change and program events. */
function kinds(): Kind[] {
  const plain = (name: string): Kind => ({ name, xml: fixture(name), alwaysGzip: false })
  return [
    plain('02-status-heartbeat'),
    plain('03-event-process-not-running'),
    { name: '07-status-gzip', xml: gunzipSync(fixture('07-status-gzip.body.gz')), alwaysGzip: true },
    plain('11-event-checksum-changed'),
    plain('12-event-program-status-failed')
  ]
}

/**
 * Seconds between an agent's consecutive messages. Larger than the fixtures' own time span (about
 * 250 s), so every message is a newer snapshot than the last one. Without it the server would see
 * stale snapshots after the first round and skip the service writes, flattering both measurements.
 */
const CYCLE_SECONDS = 1000

function advanceTimes(xml: Buffer, seconds: number): Buffer {
  return Buffer.from(xml.toString('latin1').replace(/<collected_sec>(\d+)<\/collected_sec>/g,
    (_match, sec: string) => `<collected_sec>${Number(sec) + seconds}</collected_sec>`), 'latin1')
}

export const agentId = (agent: number): string => `be4c${agent.toString(16).padStart(28, '0')}`

export interface Traffic {
  /** One heartbeat per agent, to register them all before timing. */
  warmup: Payload[]
  /** The measured messages, round-robin over the agents so consecutive posts come from different agents. */
  messages: Payload[]
  kindNames: string[]
}

/**
 * Message `seq` of an agent (seq 0 is its warm-up) is kind `seq % kinds`, shifted `seq` cycles in
 * time. Real agents gzip every message once the server answers `Server: mmonit/…`; half of the
 * messages (and every 07) are gzipped, so both the plain and the gunzip paths are measured.
 */
export function buildTraffic(agents: number, messages: number): Traffic {
  const all = kinds()
  const templates = new Map<number, { xml: Buffer; alwaysGzip: boolean }>()
  const template = (seq: number) => {
    let t = templates.get(seq)
    if (!t) {
      const kind = all[seq % all.length]
      t = { xml: advanceTimes(kind.xml, seq * CYCLE_SECONDS), alwaysGzip: kind.alwaysGzip }
      templates.set(seq, t)
    }
    return t
  }
  const payload = (agent: number, seq: number): Payload => {
    const t = template(seq)
    const xml = asAgent(t.xml, agentId(agent))
    const gzip = t.alwaysGzip || seq % 2 === 1
    return { body: gzip ? gzipSync(xml) : xml, gzip }
  }

  const warmup = Array.from({ length: agents }, (_, agent) => payload(agent, 0))
  const measured = Array.from({ length: messages }, (_, i) => payload(i % agents, 1 + Math.floor(i / agents)))
  return { warmup, messages: measured, kindNames: all.map((k) => k.name) }
}

/** The XML the server parses: gunzip is part of the work it does per message. */
export function xmlOf(p: Payload): Buffer {
  return p.gzip ? gunzipSync(p.body) : p.body
}
