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
}

/**
 * What every agent cycles through, like a running fleet: mostly heartbeats (two different real ones,
 * so values change from message to message), with a failure, a change and a program event among them.
 * Agent restarts (fixture 01/06/07: every service initializing) are rare in a running fleet and left out.
 */
function kinds(): Kind[] {
  // Fixture 13 comes from the capture's second agent, registered without credentials: give it agent
  // 1's system service name and call-back credentials, or each agent would seem to swap them on
  // every other message.
  const asAgentOne = (xml: Buffer) =>
    Buffer.from(
      xml
        .toString('latin1')
        .replaceAll('agent2-host', 'agent1-host')
        .replace(
          /<\/httpd><\/server>/,
          '</httpd><credentials><username>admin</username><password>adminpw</password></credentials></server>'
        ),
      'latin1'
    )
  const real = (name: string): Kind => ({ name, xml: asAgentOne(fixture(name)) })
  return [
    real('02-status-heartbeat'),
    real('13-status-invalid-xml-control-chars'),
    real('03-event-process-not-running'),
    real('02-status-heartbeat'),
    real('13-status-invalid-xml-control-chars'),
    real('11-event-checksum-changed'),
    real('02-status-heartbeat'),
    real('13-status-invalid-xml-control-chars'),
    real('12-event-program-status-failed')
  ]
}

/**
 * Seconds between an agent's consecutive messages. Larger than the fixtures' own time span (about
 * 250 s), so every message is a newer snapshot than the last one. Without it the server would see
 * stale snapshots after the first round and skip the service writes, flattering both measurements.
 */
const CYCLE_SECONDS = 1000

function advanceTimes(xml: Buffer, seconds: number): Buffer {
  return Buffer.from(
    xml
      .toString('latin1')
      .replace(
        /<collected_sec>(\d+)<\/collected_sec>/g,
        (_match, sec: string) => `<collected_sec>${Number(sec) + seconds}</collected_sec>`
      ),
    'latin1'
  )
}

/** Every time in the message set to `sec`: a snapshot taken at that moment, as a running agent sends. */
function atTime(xml: Buffer, sec: number): Buffer {
  return Buffer.from(
    xml.toString('latin1').replace(/<collected_sec>\d+<\/collected_sec>/g, `<collected_sec>${sec}</collected_sec>`),
    'latin1'
  )
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
 * Message `seq` of an agent (seq 0 is its warm-up, plain like an agent's first message) is kind
 * `seq % kinds`, shifted `seq` cycles in time, or taken at `timeOf(seq)` (unix seconds) when given;
 * every measured message is gzipped, as agents send them.
 */
export function buildTraffic(agents: number, messages: number, timeOf?: (seq: number) => number): Traffic {
  const all = kinds()
  const templates = new Map<number, Buffer>()
  const template = (seq: number) => {
    let t = templates.get(seq)
    if (!t) {
      const kind = all[seq % all.length]
      t = timeOf ? atTime(kind.xml, timeOf(seq)) : advanceTimes(kind.xml, seq * CYCLE_SECONDS)
      templates.set(seq, t)
    }
    return t
  }
  const payload = (agent: number, seq: number): Payload => {
    const t = template(seq)
    // Agents gzip every message after the first, once the server answers `Server: mmonit/3.7.0`.
    const xml = asAgent(t, agentId(agent))
    const gzip = seq > 0
    return { body: gzip ? gzipSync(xml) : xml, gzip }
  }

  const warmup = Array.from({ length: agents }, (_, agent) => payload(agent, 0))
  const measured = Array.from({ length: messages }, (_, i) => payload(i % agents, 1 + Math.floor(i / agents)))
  return { warmup, messages: measured, kindNames: [...new Set(all.map((k) => k.name))] }
}

/** The XML the server parses: gunzip is part of the work it does per message. */
export function xmlOf(p: Payload): Buffer {
  return p.gzip ? gunzipSync(p.body) : p.body
}
