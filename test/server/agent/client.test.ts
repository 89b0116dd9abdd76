// The Monit httpd client against small fake agents on 127.0.0.1 that answer as Monit 5.33 does (§5).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import tls from 'node:tls'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { AgentClient, AgentError, type AgentErrorKind, type AgentTarget } from '../../../src/server/agent/client'
import { agentMessage } from '../../../src/server/agent/response'
import { FIXTURES_DIR } from '../../support/fixtures'

interface SeenRequest {
  requestLine: string
  headers: Map<string, string>
  body: string
}
type Answer = (req: SeenRequest) => string | undefined

const monitPage = (status: string, title: string, text: string) => {
  const html =
    `<html><head><title>${status}</title></head><body bgcolor=#FFFFFF><h2>${title}</h2>${text}<hr>` +
    `<a href='https://mmonit.com/monit/'><font size=-1>monit 5.33.0</font></a></body></html>`
  return (
    `HTTP/1.0 ${status}\r\nServer: monit 5.33.0\r\nContent-Length: ${html.length}\r\nConnection: close\r\n` +
    `Content-Type: text/html\r\n\r\n${html}`
  )
}
const ok = (body: string) =>
  `HTTP/1.0 200 OK\r\nServer: monit 5.33.0\r\nContent-Length: ${body.length}\r\nConnection: close\r\nContent-Type: text/html\r\n\r\n${body}`
const moved =
  'HTTP/1.0 302 Moved Temporarily\r\nServer: monit 5.33.0\r\nContent-Length: 0\r\nConnection: close\r\nLocation: /_doaction\r\n\r\n'

const servers: net.Server[] = []
const sockets = new Set<net.Socket>()
afterEach(async () => {
  for (const s of sockets) s.destroy()
  sockets.clear()
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))))
})

function parseRequest(raw: string): SeenRequest | undefined {
  const end = raw.indexOf('\r\n\r\n')
  if (end < 0) return undefined
  const [requestLine, ...lines] = raw.slice(0, end).split('\r\n')
  const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
  const body = raw.slice(end + 4)
  if (body.length < Number(headers.get('content-length') ?? 0)) return undefined
  return { requestLine, headers, body }
}

/** A fake agent: `answer` returns the raw response, or undefined to never answer. */
async function fakeAgent(answer: Answer, secure?: tls.TlsOptions): Promise<{ port: number; seen: SeenRequest[] }> {
  const seen: SeenRequest[] = []
  const onSocket = (socket: net.Socket) => {
    sockets.add(socket)
    let raw = ''
    socket.on('error', () => {})
    socket.on('data', (chunk: Buffer) => {
      raw += chunk.toString('latin1')
      // A TLS ClientHello to a plain agent: answer in plain HTTP as an HTTP server would.
      if (!secure && raw.startsWith('\x16')) return socket.end(monitPage('400 Bad Request', 'Bad Request', 'Cannot parse request'))
      const req = parseRequest(raw)
      if (!req) return
      seen.push(req)
      const res = answer(req)
      if (res !== undefined) socket.end(res)
    })
  }
  const server = secure ? tls.createServer(secure, onSocket) : net.createServer(onSocket)
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { port: (server.address() as net.AddressInfo).port, seen }
}

const client = (port: number, extra: Partial<AgentTarget> = {}) =>
  new AgentClient({ host: '127.0.0.1', port, ssl: false, user: 'admin', password: 'adminpw', ...extra })

async function failure(p: Promise<unknown>): Promise<AgentError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(err).toBeInstanceOf(AgentError)
  return err as AgentError
}
const expectKind = async (p: Promise<unknown>, kind: AgentErrorKind, text: RegExp) => {
  const err = await failure(p)
  expect(err.kind).toBe(kind)
  expect(err.message).toMatch(text)
}

describe('AgentClient', () => {
  it('pings over HTTP/1.0 with Basic auth, one request per connection', async () => {
    const agent = await fakeAgent((req) =>
      req.requestLine === 'GET /_ping HTTP/1.0' ? ok('pong') : monitPage('404 Not Found', 'Not Found', 'no')
    )
    await client(agent.port).ping()
    expect(agent.seen).toHaveLength(1)
    expect(agent.seen[0].requestLine).toBe('GET /_ping HTTP/1.0')
    expect(agent.seen[0].headers.get('authorization')).toBe(`Basic ${Buffer.from('admin:adminpw').toString('base64')}`)
    expect(agent.seen[0].headers.get('connection')).toBe('close')
  })

  it('reads the agent id', async () => {
    const agent = await fakeAgent(() => ok('0123456789abcdef0123456789abcdef'))
    expect(await client(agent.port).getId()).toBe('0123456789abcdef0123456789abcdef')
    expect(agent.seen[0].requestLine).toBe('GET /_getid HTTP/1.0')
  })

  it('reads the status XML, and calls a server whose status is not Monit XML no agent', async () => {
    const xml = readFileSync(join(FIXTURES_DIR, '02-status-heartbeat.xml'))
    const agent = await fakeAgent((req) =>
      req.requestLine === 'GET /_status2?format=xml HTTP/1.0' ? ok(xml.toString('latin1')) : ok('<html/>')
    )
    expect((await client(agent.port).status()).services).toHaveLength(11)
    const other = await fakeAgent(() => ok('<html><body>hello</body></html>'))
    await expect(client(other.port).status()).rejects.toMatchObject({ kind: 'not-monit' })
  })

  it('sends an action with a fresh double-submit token and takes 302 as accepted', async () => {
    const agent = await fakeAgent(() => moved)
    await client(agent.port).doAction('stop', ['sleeper', 'lab dir'])
    await client(agent.port).doAction('start', ['sleeper'])
    const [first, second] = agent.seen
    expect(first.requestLine).toBe('POST /_doaction HTTP/1.0')
    const body = new URLSearchParams(first.body)
    expect(body.get('action')).toBe('stop')
    expect(body.getAll('service')).toEqual(['sleeper', 'lab dir'])
    const token = body.get('securitytoken')
    expect(token).toMatch(/^[0-9a-f]{32}$/)
    expect(first.headers.get('cookie')).toBe(`securitytoken=${token}`)
    expect(first.headers.get('content-type')).toBe('application/x-www-form-urlencoded')
    expect(Number(first.headers.get('content-length'))).toBe(first.body.length)
    expect(new URLSearchParams(second.body).get('securitytoken')).not.toBe(token)
  })

  it('refuses an action Monit would not run, without calling the agent', async () => {
    const agent = await fakeAgent(() => moved)
    await expectKind(client(agent.port).doAction('alert', ['sleeper']), 'invalid', /invalid action "alert"/)
    await expectKind(client(agent.port).doAction('stop', []), 'invalid', /no service/)
    expect(agent.seen).toHaveLength(0)
  })

  it('reports bad credentials on 401', async () => {
    const agent = await fakeAgent(() =>
      monitPage(
        '401 Unauthorized',
        'Unauthorized',
        "You are not authorized to access monit. Either you supplied the wrong credentials (e.g. bad password), or your browser doesn't understand how to supply the credentials required"
      )
    )
    await expectKind(client(agent.port, { password: 'wrong' }).ping(), 'credentials', /bad credentials.*user 'admin'/)
  })

  it('reports a read-only user on 403 to an action', async () => {
    const agent = await fakeAgent(() =>
      monitPage('403 Forbidden', 'Forbidden', 'You do not have sufficient privileges to access this page')
    )
    await expectKind(
      client(agent.port, { user: 'guest' }).doAction('stop', ['sleeper']),
      'read-only',
      /user 'guest' is read-only.*You do not have sufficient privileges to access this page$/
    )
  })

  it('passes the agent message of a 400 on', async () => {
    const agent = await fakeAgent(() => monitPage('400 Bad Request', 'Bad Request', 'There is no service named &quot;x&quot;'))
    await expectKind(client(agent.port).doAction('stop', ['x']), 'agent', /^There is no service named "x"$/)
  })

  it('times out on an agent that never answers', async () => {
    const agent = await fakeAgent(() => undefined)
    const started = Date.now()
    await expectKind(client(agent.port, { responseTimeoutMs: 200 }).ping(), 'timeout', /did not answer within 0.2 s/)
    expect(Date.now() - started).toBeGreaterThanOrEqual(190)
  })

  it('reports a closed port as connection refused', async () => {
    const probe = net.createServer()
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
    const port = (probe.address() as net.AddressInfo).port
    await new Promise((r) => probe.close(r))
    await expectKind(client(port).ping(), 'refused', new RegExp(`connection refused by 127.0.0.1:${port}`))
  })

  it('recognises a server that is not a Monit agent', async () => {
    const web = await fakeAgent(() => 'HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Length: 5\r\n\r\nhello')
    await expectKind(client(web.port).ping(), 'not-monit', /not a Monit agent: \/_ping did not answer pong/)
    const nginx404 = await fakeAgent(() => 'HTTP/1.1 404 Not Found\r\nServer: nginx\r\nContent-Length: 0\r\n\r\n')
    await expectKind(client(nginx404.port).ping(), 'not-monit', /not a Monit agent: it answered HTTP 404/)
    const ssh = await fakeAgent(() => 'SSH-2.0-OpenSSH_9.2\r\n')
    await expectKind(client(ssh.port).ping(), 'not-monit', /the answer is not HTTP/)
  })

  it('extracts the message of a Monit error page as the CLI does', () => {
    expect(agentMessage('<h2>Bad Request</h2>Invalid action "explode"<p>more</p>')).toBe('Invalid action "explode"')
    expect(agentMessage('no page here')).toBeUndefined()
  })

  describe('over TLS', () => {
    const openssl = '/usr/bin/openssl'
    const dir = existsSync(openssl) ? mkdtempSync(join(tmpdir(), 'agent-tls-')) : undefined
    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true })
    })
    const selfSigned = (): tls.TlsOptions => {
      const key = join(dir as string, 'key.pem')
      const cert = join(dir as string, 'cert.pem')
      execFileSync(
        openssl,
        ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=monit-agent'],
        { stdio: 'ignore' }
      )
      return { key: readFileSync(key), cert: readFileSync(cert) }
    }

    const title = 'accepts a self-signed certificate by default, and can refuse it'
    it.skipIf(!dir)(dir ? title : `${title} (skipped: /usr/bin/openssl is absent, no certificate to test with)`, async () => {
      const agent = await fakeAgent(() => ok('pong'), selfSigned())
      await client(agent.port, { ssl: true }).ping()
      expect(agent.seen[0].requestLine).toBe('GET /_ping HTTP/1.0')
      await expectKind(client(agent.port, { ssl: true, rejectUnauthorized: true }).ping(), 'tls', /TLS error.*self.signed/i)
    })

    it('reports a TLS error when the agent speaks plain HTTP', async () => {
      const agent = await fakeAgent(() => ok('pong'))
      await expectKind(client(agent.port, { ssl: true }).ping(), 'tls', /TLS error with 127.0.0.1/)
    })
  })
})
