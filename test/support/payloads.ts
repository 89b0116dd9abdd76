// Variations of real payloads for tests: shifted clocks, edited events, removed services.
export function shiftTime(xml: Buffer | string, seconds: number): string {
  return xml.toString().replace(/<collected_sec>(\d+)<\/collected_sec>/g, (_, s: string) => `<collected_sec>${Number(s) + seconds}</collected_sec>`)
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
  if (e.message !== undefined) edited = edited.replace(/<message><!\[CDATA\[.*?\]\]><\/message>/s, `<message><![CDATA[${e.message}]]></message>`)
  s = s.slice(0, s.indexOf('<event>')) + edited
  return s
}

export function withoutService(xml: Buffer | string, name: string): string {
  return xml.toString().replace(new RegExp(`<service name="${name}">.*?</service>(?=<service |</services>)`, 's'), '')
}

export function withoutEvent(xml: Buffer | string): string {
  return xml.toString().replace(/<event>.*<\/event>/s, '')
}
