// Collector messages far larger than real agents send (agent protocol §3: about 11 services in
// 4–8 KB), built from the real heartbeat (fixture 02) so that everything but their size is ordinary.
import { asAgent, fixture } from './fixtures'

export interface LargeMessageShape {
  /** Services in the message. */
  services: number
  /** Port tests per service: each one is a statistic of its own (a response time). */
  portTestsPerService?: number
  /** Members of one service group listing the services in order (the fixture's groups otherwise). */
  serviceGroupMembers?: number
}

/**
 * A heartbeat of agent `agentId` whose `<services>` holds `shape.services` process services named
 * `svc-000001`, … Each carries the common fields, a PID and `portTestsPerService` port tests.
 */
export function largeHeartbeat(agentId: string, shape: LargeMessageShape): Buffer {
  const xml = asAgent(fixture('02-status-heartbeat'), agentId).toString('latin1')
  const collected = Number(/<collected_sec>(\d+)</.exec(xml)?.[1] ?? 0)
  const open = xml.indexOf('<services>') + '<services>'.length
  const close = xml.indexOf('</services>')
  const services: string[] = []
  for (let i = 1; i <= shape.services; i++) services.push(serviceXml(i, collected, shape.portTestsPerService ?? 0))
  let rest = xml.slice(close)
  if (shape.serviceGroupMembers !== undefined) {
    const members = Array.from({ length: shape.serviceGroupMembers }, (_, i) => `<service>${serviceName(i + 1)}</service>`)
    rest = rest.replace(
      /<servicegroups>.*<\/servicegroups>/s,
      `<servicegroups><servicegroup name="all">${members.join('')}</servicegroup></servicegroups>`
    )
  }
  return Buffer.from(xml.slice(0, open) + services.join('') + rest, 'latin1')
}

export const serviceName = (n: number): string => `svc-${String(n).padStart(6, '0')}`

function serviceXml(n: number, collectedSec: number, portTests: number): string {
  const ports: string[] = []
  for (let p = 0; p < portTests; p++) {
    ports.push(
      `<port><hostname>h${n}</hostname><portnumber>${1024 + p}</portnumber><type>TCP</type><responsetime>0.00025</responsetime></port>`
    )
  }
  return (
    `<service name="${serviceName(n)}"><type>3</type><collected_sec>${collectedSec}</collected_sec>` +
    '<collected_usec>0</collected_usec><status>0</status><status_hint>0</status_hint><monitor>1</monitor>' +
    `<monitormode>0</monitormode><onreboot>0</onreboot><pendingaction>0</pendingaction><pid>${1000 + n}</pid>` +
    `${ports.join('')}</service>`
  )
}
