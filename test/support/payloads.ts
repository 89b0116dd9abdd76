// Variations of real payloads for tests: shifted clocks, edited events, removed services.

/**
 * Every timestamp in the fixtures lies in [1795300000, 1795301000): the capture of 2026-11-21 (docs/development.md,
 * "Test fixtures"). Shifting by whole hours keeps minute and hour boundaries where they were at the capture.
 */
const CAPTURE_TIMESTAMP = /\b1795300\d{3}\b/g
const CAPTURE_END_SEC = 1795301000

/** Whole hours to add to a capture timestamp so that the whole capture lies in the hour before `nowSec`. */
export function captureShiftTo(nowSec: number): number {
  return Math.floor((nowSec - 60 - CAPTURE_END_SEC) / 3600) * 3600
}

/**
 * A fixture as if captured `shiftSec` later: every agent time in it (collected_sec, incarnation, file
 * timestamps, program start and output, event messages) moves together, so tests do not depend on the
 * day they run.
 */
export function retimeCapture(xml: Buffer | string, shiftSec: number): string {
  return xml.toString('latin1').replace(CAPTURE_TIMESTAMP, (s) => String(Number(s) + shiftSec))
}
export function shiftTime(xml: Buffer | string, seconds: number): string {
  return xml
    .toString()
    .replace(/<collected_sec>(\d+)<\/collected_sec>/g, (_, s: string) => `<collected_sec>${Number(s) + seconds}</collected_sec>`)
}

/** The agent's poll interval: how soon its silence counts as "no report" (heartbeat). */
export function withPoll(xml: Buffer | string, seconds: number): string {
  return xml.toString().replace(/<poll>\d+<\/poll>/g, `<poll>${seconds}</poll>`)
}

export function withIncarnation(xml: Buffer | string, incarnation: number): string {
  return xml.toString().replace(/incarnation="\d+"/, `incarnation="${incarnation}"`)
}

export function withEvent(xml: Buffer | string, e: { sec?: number; usec?: number; state?: number; message?: string }): string {
  let s = xml.toString()
  const event = s.slice(s.indexOf('<event>'))
  let edited = event
  if (e.sec !== undefined) edited = edited.replace(/<collected_sec>\d+</, `<collected_sec>${e.sec}<`)
  if (e.usec !== undefined) edited = edited.replace(/<collected_usec>\d+</, `<collected_usec>${e.usec}<`)
  if (e.state !== undefined) edited = edited.replace(/<state>\d<\/state>/, `<state>${e.state}</state>`)
  if (e.message !== undefined)
    edited = edited.replace(/<message><!\[CDATA\[.*?\]\]><\/message>/s, `<message><![CDATA[${e.message}]]></message>`)
  s = s.slice(0, s.indexOf('<event>')) + edited
  return s
}

export function withoutService(xml: Buffer | string, name: string): string {
  return xml.toString().replace(new RegExp(`<service name="${name}">.*?</service>(?=<service |</services>)`, 's'), '')
}

export function withoutEvent(xml: Buffer | string): string {
  return xml.toString().replace(/<event>.*<\/event>/s, '')
}

/**
 * The message as a Monit 5.34+ agent with `set mmonit … with hostgroups [names]` sends it: its
 * `<hostgroups>` (fixture 14's) replaced, or added between `<platform>` and `<services>`; none drops it.
 */
export function withHostGroups(xml: Buffer | string, names: readonly string[]): string {
  const element = names.length === 0 ? '' : `<hostgroups>${names.map((n) => `<name><![CDATA[${n}]]></name>`).join('')}</hostgroups>`
  return xml
    .toString()
    .replace(/<hostgroups>.*?<\/hostgroups>/s, '')
    .replace('</platform><services>', `</platform>${element}<services>`)
}

/**
 * Fixture 02 (the heartbeat) collected at `collectedSec`, its root filesystem `spacePercent` full and its
 * memory at `memoryPercent`: the figures forecasts are made of.
 */
export function withResourceFigures(
  xml: Buffer | string,
  f: { collectedSec: number; spacePercent: number; memoryPercent: number }
): string {
  return xml
    .toString('latin1')
    .replace(/<collected_sec>\d+<\/collected_sec>/g, `<collected_sec>${f.collectedSec}</collected_sec>`)
    .replace(/<block><percent>[\d.]+<\/percent>/, `<block><percent>${f.spacePercent.toFixed(2)}</percent>`)
    .replace(/(<system>.*?<memory><percent>)[\d.]+</s, `$1${f.memoryPercent.toFixed(1)}<`)
}
