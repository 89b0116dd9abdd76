// Parsing of a Monit httpd answer (HTTP/1.0, body up to the end of the connection), and the message
// its error pages carry.

export interface AgentResponse {
  status: number
  /** Header names in lower case. */
  headers: Map<string, string>
  body: string
  /** The body as bytes, for documents that carry their own encoding (the status XML). */
  raw: Buffer
}

/** The response, or why it is not HTTP. */
export function parseResponse(raw: Buffer): AgentResponse | string {
  if (raw.length === 0) return "the connection closed without an answer (is this address allowed by the agent's allow list?)"
  const text = raw.toString('latin1')
  const status = /^HTTP\/1\.[01] (\d{3})[^\r\n]*\r?\n/.exec(text)
  if (!status) return 'the answer is not HTTP'
  const end = text.search(/\r?\n\r?\n/)
  if (end < 0) return 'the answer ends inside its headers'
  const headers = new Map<string, string>()
  for (const line of text.slice(status[0].length, end).split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  const bodyStart = text.slice(end).match(/^\r?\n\r?\n/)?.[0].length ?? 0
  const bytes = raw.subarray(end + bodyStart)
  return { status: Number(status[1]), headers, body: bytes.toString('utf8'), raw: bytes }
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: ' ' }

/**
 * The text of a Monit error page: between `</h2>` and the next `<hr>` or `<p>`, as Monit's CLI takes
 * it (§5.3). Undefined when the page does not have that shape.
 */
export function agentMessage(body: string): string | undefined {
  const m = /<\/h2>([\s\S]*?)(?:<hr|<p)/i.exec(body)
  if (!m) return undefined
  const text = m[1].replace(/<[^>]*>/g, '').replace(/&(#39|[a-z]+);/gi, (all, name: string) => entities[name.toLowerCase()] ?? all)
  return text.replace(/\s+/g, ' ').trim() || undefined
}
