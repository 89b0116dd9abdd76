import { connect } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postCollector } from '../../support/collector-client'
import { fixture, fixtureNames } from '../../support/fixtures'
import { startTestServer, type TestServer } from '../../support/in-process-server'
import { addUser } from '../../support/users'

const COLLECTOR = 'monit:collect0r'
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ collectorLimits: { maxBodyBytes: 256 * 1024, maxXmlBytes: 1024 * 1024 } })
  // A user without any role: authenticated, but not allowed to collect.
  addUser(server.store, { uname: 'viewer', password: 'viewerpw', roleIds: [] })
})
afterAll(() => server.stopAndClean())

const post = (body: Buffer | string, opts: Parameters<typeof postCollector>[2] = { auth: COLLECTOR }) =>
  postCollector(server.baseUrl, body, opts)
const hostCount = () => (server.store.sql.plain.prepare('SELECT COUNT(*) AS n FROM host').get() as { n: number }).n

describe('POST /collector accepts what real agents send', () => {
  it.each(fixtureNames())('%s → 200 with the mmonit Server header', async (name) => {
    const res = await post(fixture(name))
    expect(res.status).toBe(200)
    expect(res.body).toBe('')
    expect(res.headers.server).toBe('mmonit/3.7.0')
  })

  it('accepts a gzip body as sent after negotiation (fixture 07)', async () => {
    const res = await post(fixture('07-status-gzip.body.gz'), { auth: COLLECTOR, gzip: true })
    expect(res.status).toBe(200)
  })

  it('takes a query string on the collector path, and only that path', async () => {
    const postTo = (path: string) =>
      fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        body: new Uint8Array(fixture('02-status-heartbeat')),
        headers: { Authorization: `Basic ${Buffer.from(COLLECTOR).toString('base64')}`, 'Content-Type': 'text/xml' }
      })
    const withQuery = await postTo('/collector?from=monit')
    expect(withQuery.status).toBe(200)
    expect(withQuery.headers.get('server')).toBe('mmonit/3.7.0')
    expect((await postTo('/collectors')).headers.get('server')).toBeNull()
  })

  it('accepts an administrator and a missing Content-Type', async () => {
    const res = await post(fixture('02-status-heartbeat'), { auth: 'admin:adminsecret', headers: { 'Content-Type': '' } })
    expect(res.status).toBe(200)
  })
})

describe('POST /collector refuses what is not an authorised Monit message, and keeps serving', () => {
  it.each([
    ['no credentials', undefined],
    ['a wrong password', 'monit:wrong'],
    ['an unknown user', 'nobody:collect0r'],
    ['a malformed header', 'no-colon-here']
  ])('401 with a Basic challenge for %s, storing nothing', async (_, auth) => {
    const before = hostCount()
    const res = await post(
      fixture('09-event-agent2-started-no-credentials')
        .toString()
        .replace(/id="52f8[^"]*"/, 'id="ffff"'),
      { auth }
    )
    expect(res.status).toBe(401)
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/)
    expect(JSON.parse(res.body)).toEqual({ error: 'valid collector credentials are required' })
    expect(hostCount()).toBe(before)
  })

  it('403 for a user without the collector permission', async () => {
    const res = await post(fixture('02-status-heartbeat'), { auth: 'viewer:viewerpw' })
    expect(res.status).toBe(403)
    expect(JSON.parse(res.body).error).toMatch(/collector permission/)
  })

  it.each(['GET', 'PUT', 'DELETE'])('405 for %s, naming the allowed method', async (method) => {
    const res = await post('', { auth: COLLECTOR, method })
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('POST')
  })

  const xml02 = fixture('02-status-heartbeat').toString()
  it.each([
    ['an empty body', ''],
    ['plain text', 'hello'],
    ['JSON', '{"monit": {"id": "x"}}'],
    ['another XML document', '<?xml version="1.0"?><rss><channel/></rss>'],
    ['a document truncated in half', xml02.slice(0, xml02.length / 2)],
    ['a document missing its last bytes', xml02.slice(0, -20)],
    [
      'an XML bomb',
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><monit id="x">&lol2;</monit>`
    ],
    [
      'an external entity',
      `<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><monit id="x"><server>&x;</server></monit>`
    ]
  ])('400 with a JSON error for %s', async (_, body) => {
    const res = await post(body)
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body).error).toMatch(/^not a valid Monit message: /)
  })

  it('413 for a body over the size limit', async () => {
    const res = await post(Buffer.alloc(300 * 1024, 'a'))
    expect(res.status).toBe(413)
    expect(JSON.parse(res.body)).toEqual({ error: 'request body is too large' })
  })

  it('413 for a chunked body that grows over the limit, without a Content-Length to refuse it up front', async () => {
    const auth = Buffer.from(COLLECTOR).toString('base64')
    const chunk = Buffer.alloc(64 * 1024, 'a')
    const status = await new Promise<string>((done) => {
      let answer = ''
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(`POST /collector HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${auth}\r\nTransfer-Encoding: chunked\r\n\r\n`)
        for (let i = 0; i < 5; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
        socket.write('0\r\n\r\n')
      })
      socket.on('data', (d: Buffer) => (answer += d.toString()))
      socket.on('error', () => {})
      socket.on('close', () => done(answer.split('\r\n')[0]))
    })
    expect(status).toBe('HTTP/1.1 413 Payload Too Large')
  })

  it('413 for a gzip bomb, without inflating it whole', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024)) // 64 MiB of zeros in ~64 KiB
    expect(bomb.length).toBeLessThan(256 * 1024)
    const res = await post(bomb, { auth: COLLECTOR, gzip: true })
    expect(res.status).toBe(413)
    expect(JSON.parse(res.body).error).toMatch(/decompressed body exceeds/)
  })

  it('400 for a body that claims gzip but is not, 415 for an unknown encoding', async () => {
    expect((await post(fixture('02-status-heartbeat'), { auth: COLLECTOR, gzip: true })).status).toBe(400)
    const br = await post(fixture('02-status-heartbeat'), { auth: COLLECTOR, headers: { 'Content-Encoding': 'br' } })
    expect(br.status).toBe(415)
    expect(JSON.parse(br.body)).toEqual({ error: 'unsupported Content-Encoding: br' })
  })

  it('survives a client that hangs up in the middle of its body', async () => {
    await new Promise<void>((done) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(
          `POST /collector HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${Buffer.from(COLLECTOR).toString('base64')}\r\n` +
            'Content-Type: text/xml\r\nContent-Length: 100000\r\n\r\n<?xml version="1.0"?><monit id="abc"'
        )
        setTimeout(() => socket.destroy(), 50)
      })
      socket.on('close', () => done())
    })
    expect((await post(fixture('02-status-heartbeat'))).status).toBe(200)
  })

  it('still serves after all of the above', async () => {
    const health = await fetch(`${server.baseUrl}/health`)
    expect(health.status).toBe(200)
    expect((await post(fixture('11-event-checksum-changed'))).status).toBe(200)
  })
})

describe('concurrent posts from one agent', () => {
  it('store one event however many times it races in', async () => {
    const event = fixture('12-event-program-status-failed')
    const results = await Promise.all(Array.from({ length: 40 }, () => post(event)))
    expect(results.every((r) => r.status === 200)).toBe(true)
    const n = server.store.sql.plain.prepare('SELECT COUNT(*) AS n FROM event WHERE class = 2097152').get() as { n: number }
    expect(n.n).toBe(1)
  })
})
