// Reading a raw e-mail as an SMTP server received it: one header (folded lines unfolded) and the text
// body, decoded as its Content-Transfer-Encoding says.

export function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r\n\r\n/)[0].replace(/\r\n[ \t]+/g, ' ')
  const line = head.split('\r\n').find((l) => l.toLowerCase().startsWith(name.toLowerCase() + ':'))
  return line?.slice(name.length + 1).trim()
}

export function textBody(raw: string): string {
  const [head, ...rest] = raw.split(/\r\n\r\n/)
  const text = rest.join('\r\n\r\n')
  const cte = /content-transfer-encoding:\s*(\S+)/i.exec(head)?.[1]?.toLowerCase()
  if (cte === 'base64') return Buffer.from(text, 'base64').toString('utf8')
  if (cte === 'quoted-printable') {
    const bytes = text.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => `%${h}`)
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'))
  }
  return text
}

/** The decoded body of the part of type `type` (text/plain, text/html) of a multipart message; undefined if none. */
export function partBody(raw: string, type: string): string | undefined {
  const head = raw.split(/\r\n\r\n/)[0].replace(/\r\n[ \t]+/g, ' ')
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head)?.[1]
  if (boundary === undefined) return header(raw, 'Content-Type')?.startsWith(type) ? textBody(raw) : undefined
  const part = raw
    .split(`--${boundary}`)
    .map((p) => p.replace(/^\r\n/, '').replace(/\r\n$/, ''))
    .find((p) => header(p, 'Content-Type')?.toLowerCase().startsWith(type))
  return part === undefined ? undefined : textBody(part)
}
