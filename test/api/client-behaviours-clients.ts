// The clients of compat §8.1, byte for byte: Ruby's Net::HTTP on a raw socket (its exact headers, Host
// without a port, one request per connection), and the curl provisioning script of CLI-7.
import { execFile } from 'node:child_process'
import { openRaw } from '../support/raw-socket'

export interface RawAnswer {
  status: number
  /** Lower-case names; every value of a repeated header, in order. */
  headers: Map<string, string[]>
  body: string
}

export interface RubyRequest {
  /** Sent as `Cookie:` when given (the text before the first ';' of Set-Cookie, as the client keeps it). */
  cookie?: string
  /** A form body (application/x-www-form-urlencoded); POST only. */
  form?: string
  /** Headers after Ruby's own, e.g. a browser's Origin in the attack tests. */
  headers?: Record<string, string>
}

/** One request as Ruby's Net::HTTP writes it (`Net::HTTP.start(host, port) { |h| h.request(req) }`). */
export async function rubyRequest(port: number, method: 'GET' | 'POST', target: string, req: RubyRequest = {}): Promise<RawAnswer> {
  const lines = [
    `${method} ${target} HTTP/1.1`,
    'Accept-Encoding: gzip;q=1.0,deflate;q=0.6,identity;q=0.3',
    'Accept: */*',
    'User-Agent: Ruby',
    'Host: 127.0.0.1',
    ...(req.cookie ? [`Cookie: ${req.cookie}`] : []),
    ...(method === 'POST'
      ? ['Content-Type: application/x-www-form-urlencoded', `Content-Length: ${Buffer.byteLength(req.form ?? '')}`]
      : []),
    ...Object.entries(req.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    'Connection: close'
  ]
  const connection = await openRaw(port, `${lines.join('\r\n')}\r\n\r\n${req.form ?? ''}`)
  await connection.closed
  return parseAnswer(Buffer.from(connection.received(), 'latin1'))
}

function parseAnswer(raw: Buffer): RawAnswer {
  const end = raw.indexOf('\r\n\r\n')
  if (end < 0) throw new Error(`no complete answer: ${raw.toString('latin1').slice(0, 200)}`)
  const [statusLine, ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n')
  const headers = new Map<string, string[]>()
  for (const line of headerLines) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).toLowerCase()
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()])
  }
  if (headers.get('transfer-encoding')?.includes('chunked')) throw new Error('a chunked answer: this client reads Content-Length only')
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.subarray(end + 4).toString('utf8') }
}

/** The zsessionid the answer sets, as the client keeps it (the text before the first ';'); undefined when none. */
export function sessionCookie(answer: RawAnswer): string | undefined {
  const set = answer.headers.get('set-cookie')
  return set?.[0]?.split(';')[0]
}

/** True for the HTML login page, as clients detect "logged out" (compat AUTH-5). */
export function isLoginPage(answer: RawAnswer): boolean {
  return answer.status === 200 && answer.headers.get('content-type')?.[0] === 'text/html' && answer.body.includes('name="z_username"')
}

/** Runs a shell script of test/fixtures/clients with `args`; its standard output. */
export function runClientScript(script: string, args: readonly string[]): Promise<string> {
  const path = new URL(`../fixtures/clients/${script}`, import.meta.url).pathname
  return new Promise((resolve, reject) => {
    execFile('sh', [path, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${script} failed: ${error.message}\n${stderr}`))
      else resolve(stdout)
    })
  })
}
