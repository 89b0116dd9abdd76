// A pulled agent's status document (`/_status2?format=xml`: the collector's format without an event, agent
// protocol §4.8) made into the messages a pushing agent would have sent, for the collector's own ingest:
// its poll set to the pull interval (the heartbeat watches the host at the pace it is read), and an
// event implied by the status (domain/pulled-events.ts) added as the `<event>` element a pushed message carries.
import type { MonitEvent } from './message'

/** The message: `xml` with `pollSec` as its poll and, when given, `event`. */
export function pulledMessage(xml: Buffer, pollSec: number, event?: MonitEvent): Buffer {
  let text = xml.toString('latin1').replace(/<poll>\d+<\/poll>/, `<poll>${pollSec}</poll>`)
  if (event) {
    const element =
      `<event><collected_sec>${event.collectedSec}</collected_sec><collected_usec>${event.collectedUsec}</collected_usec>` +
      `<service>${escapeText(event.service)}</service><type>${event.serviceType}</type><id>${event.id}</id>` +
      `<state>${event.state}</state><action>${event.action}</action><message>${cdata(event.message)}</message></event>`
    const end = text.lastIndexOf('</monit>')
    text = end < 0 ? text : text.slice(0, end) + element + text.slice(end)
  }
  return Buffer.from(text, 'latin1')
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** A CDATA section holding `s`, whose own `]]>` is split across two sections. */
function cdata(s: string): string {
  return `<![CDATA[${s.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`
}
