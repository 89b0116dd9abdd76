// The email channel against a real SMTP server (smtp-server) on 127.0.0.1: plain, STARTTLS and implicit
// TLS with a self-signed certificate made by openssl for the test, authentication, refusals, a server
// that never answers, and the message as received.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertNotification } from '../../../../src/shared/api/alerts'
import type { SendContext } from '../../../../src/server/alerting/channel'
import { describeError, emailChannel, emailSettings, messageIdOf, parseMailbox } from '../../../../src/server/alerting/channels/email'
import { channelType } from '../../../../src/server/alerting/channels'
import { header, partBody, textBody } from '../../../support/mail-message'
import { renderMessage } from '../../../../src/server/alerting/templates'

const notification: AlertNotification = {
  id: 'n-42',
  summary: 'sleeper failed on web-1',
  link: 'http://overseer.test/#/events/7',
  alerts: [
    {
      hostid: 1,
      host: 'web-1',
      serviceid: 2,
      service: 'sleeper',
      servicetype: 3,
      event: 'Nonexist',
      state: 'failed',
      message: 'process is not running',
      date: 1_800_000_000,
      link: 'http://overseer.test/#/events/7'
    }
  ]
}
const message = { subject: '[Overseer] sleeper failed on web-1', body: 'sleeper failed on web-1\n\n* web-1 · sleeper: Nonexist failed\n' }

interface Received {
  session: { secure: boolean; user: unknown; from: string; to: string[] }
  raw: string
}

let dir: string
let key: string
let cert: string

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'overseer-smtp-'))
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem')
    ],
    { stdio: 'ignore' }
  )
  key = readFileSync(path.join(dir, 'key.pem'), 'utf8')
  cert = readFileSync(path.join(dir, 'cert.pem'), 'utf8')
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A real SMTP server on 127.0.0.1 that keeps what it receives; user "alert" / password "s3cret pass". */
async function smtp(options: Partial<SMTPServerOptions> = {}) {
  const received: Received[] = []
  const server = new SMTPServer({
    logger: false,
    disableReverseLookup: true,
    authOptional: true,
    key,
    cert,
    onAuth(auth, _session, cb) {
      if (auth.username === 'alert' && auth.password === 's3cret pass') cb(null, { user: auth.username })
      else cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }))
    },
    onRcptTo(address, _session, cb) {
      if (address.address.startsWith('nobody@'))
        cb(Object.assign(new Error('5.1.1 <' + address.address + '>: no such user'), { responseCode: 550 }))
      else cb()
    },
    onData(stream, session: SMTPServerSession, cb) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        received.push({
          session: {
            secure: session.secure,
            user: session.user,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address)
          },
          raw: Buffer.concat(chunks).toString('utf8')
        })
        cb(null, 'queued as T1')
      })
    },
    ...options
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.server.address() as net.AddressInfo).port
  return { server, port, received, close: () => new Promise<void>((r) => server.close(() => r())) }
}

const ctx = (over: Partial<SendContext> = {}): SendContext => ({ signal: new AbortController().signal, ...over })

function settings(args: Record<string, unknown>) {
  const parsed = emailSettings.safeParse({ smtphost: '127.0.0.1', from: 'Overseer <overseer@example.com>', to: 'ops@example.com', ...args })
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues))
  return parsed.data
}

describe('email channel', () => {
  it('is registered as the email type with smtppassword secret', () => {
    expect(channelType('email')).toBe(emailChannel)
    expect(emailChannel.secretFields).toEqual(['smtppassword'])
  })

  it('sends over plain SMTP (none) with AUTH, never upgrading, and the server receives the message as composed', async () => {
    const s = await smtp({ allowInsecureAuth: true })
    try {
      const r = await emailChannel.send(
        settings({
          smtpport: String(s.port),
          smtpsecurity: 'none',
          smtpuser: 'alert',
          smtppassword: 's3cret pass',
          to: ['ops@example.com', 'dba@example.com']
        }),
        notification,
        message,
        ctx()
      )
      expect(r).toMatchObject({ ok: true })
      expect(r.log).toMatch(/accepted the message for ops@example\.com, dba@example\.com: 250 .*queued as T1/)
      expect(s.received).toHaveLength(1)
      const { session, raw } = s.received[0]
      expect(session).toEqual({ secure: false, user: 'alert', from: 'overseer@example.com', to: ['ops@example.com', 'dba@example.com'] })
      expect(header(raw, 'From')).toBe('Overseer <overseer@example.com>')
      expect(header(raw, 'To')).toBe('ops@example.com, dba@example.com')
      expect(header(raw, 'Subject')).toBe('[Overseer] sleeper failed on web-1')
      expect(header(raw, 'Message-ID')).toBe('<overseer.n-42@example.com>')
      expect(header(raw, 'X-Overseer-Notification')).toBe('n-42')
      expect(header(raw, 'Auto-Submitted')).toBe('auto-generated')
      expect(textBody(raw).replace(/\r\n/g, '\n')).toBe(message.body)
    } finally {
      await s.close()
    }
  })

  it('gives a retried send the same Message-ID', async () => {
    const s = await smtp()
    try {
      const set = settings({ smtpport: s.port, smtpsecurity: 'none' })
      await emailChannel.send(set, notification, message, ctx())
      await emailChannel.send(set, notification, message, ctx())
      expect(s.received.map((m) => header(m.raw, 'Message-ID'))).toEqual(['<overseer.n-42@example.com>', '<overseer.n-42@example.com>'])
      expect(messageIdOf('a b\r\n<c>', 'x@example.org')).toMatch(/^<overseer\.[0-9a-f]{40}@example\.org>$/)
    } finally {
      await s.close()
    }
  })

  it('sends over STARTTLS to a self-signed server when smtptlsverify=false, and refuses its certificate by default', async () => {
    const s = await smtp()
    try {
      const ok = await emailChannel.send(
        settings({ smtpport: s.port, smtpsecurity: 'starttls', smtpuser: 'alert', smtppassword: 's3cret pass', smtptlsverify: 'false' }),
        notification,
        message,
        ctx()
      )
      expect(ok).toMatchObject({ ok: true })
      expect(s.received[0].session).toMatchObject({ secure: true, user: 'alert' })

      const refused = await emailChannel.send(settings({ smtpport: s.port, smtpsecurity: 'starttls' }), notification, message, ctx())
      expect(refused.ok).toBe(false)
      if (!refused.ok)
        expect(refused.error).toMatch(
          /^127\.0\.0\.1:\d+: the server's TLS certificate is not trusted: .*self-signed.*\(smtptlsverify=false accepts it\)$/
        )
      expect(s.received).toHaveLength(1)
    } finally {
      await s.close()
    }
  })

  it('refuses to send in plaintext when starttls is set and the server does not offer it', async () => {
    const s = await smtp({ disabledCommands: ['STARTTLS'] })
    try {
      const r = await emailChannel.send(
        settings({ smtpport: s.port, smtpsecurity: 'starttls', smtptlsverify: false }),
        notification,
        message,
        ctx()
      )
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.error).toMatch(/^127\.0\.0\.1:\d+: TLS failed: .*STARTTLS/)
      expect(s.received).toHaveLength(0)
    } finally {
      await s.close()
    }
  })

  it('sends over implicit TLS', async () => {
    const s = await smtp({ secure: true })
    try {
      const r = await emailChannel.send(
        settings({ smtpport: s.port, smtpsecurity: 'tls', smtptlsverify: false, smtpuser: 'alert', smtppassword: 's3cret pass' }),
        notification,
        message,
        ctx()
      )
      expect(r).toMatchObject({ ok: true })
      expect(s.received[0].session).toMatchObject({ secure: true, user: 'alert' })
    } finally {
      await s.close()
    }
  })

  it('says authentication failed, with the server reply, for a wrong password', async () => {
    const s = await smtp({ allowInsecureAuth: true })
    try {
      const r = await emailChannel.send(
        settings({ smtpport: s.port, smtpsecurity: 'none', smtpuser: 'alert', smtppassword: 'wrong' }),
        notification,
        message,
        ctx()
      )
      expect(r).toEqual({
        ok: false,
        error: expect.stringMatching(/^127\.0\.0\.1:\d+: authentication failed: 535 .*Invalid username or password/)
      })
      expect(s.received).toHaveLength(0)
    } finally {
      await s.close()
    }
  })

  it('does not send the password in the clear: security none to a server that offers AUTH only under TLS fails', async () => {
    const s = await smtp()
    try {
      const r = await emailChannel.send(
        settings({ smtpport: s.port, smtpsecurity: 'none', smtpuser: 'alert', smtppassword: 's3cret pass' }),
        notification,
        message,
        ctx()
      )
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.error).toMatch(/^127\.0\.0\.1:\d+: authentication failed: 5\d\d /)
      expect(s.received).toHaveLength(0)
    } finally {
      await s.close()
    }
  })

  it('says which recipient was refused with the server reply; a partly refused message is delivered and the refusal logged', async () => {
    const s = await smtp()
    try {
      const all = await emailChannel.send(
        settings({ smtpport: s.port, smtpsecurity: 'none', to: 'nobody@example.com' }),
        notification,
        message,
        ctx()
      )
      expect(all).toEqual({
        ok: false,
        error: expect.stringMatching(
          /^127\.0\.0\.1:\d+: recipient refused: nobody@example\.com \(550 5\.1\.1 <nobody@example\.com>: no such user\)$/
        )
      })
      expect(s.received).toHaveLength(0)

      const some = await emailChannel.send(
        settings({ smtpport: s.port, smtpsecurity: 'none', to: ['nobody@example.com', 'ops@example.com'] }),
        notification,
        message,
        ctx()
      )
      expect(some.ok).toBe(true)
      expect(some.log).toMatch(/recipient refused: nobody@example\.com \(550 5\.1\.1/)
      expect(s.received[0].session.to).toEqual(['ops@example.com'])
    } finally {
      await s.close()
    }
  })

  it('says connection refused', async () => {
    const probe = net.createServer()
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()))
    const port = (probe.address() as net.AddressInfo).port
    await new Promise<void>((r) => probe.close(() => r()))
    const r = await emailChannel.send(settings({ smtpport: port, smtpsecurity: 'none' }), notification, message, ctx())
    expect(r).toEqual({ ok: false, error: `127.0.0.1:${port}: connection refused` })
  })

  it('gives up on a server that never answers when the signal aborts, and closes the connection', async () => {
    let closed = 0
    const sockets: net.Socket[] = []
    const silent = net.createServer((socket) => {
      sockets.push(socket)
      socket.on('close', () => {
        closed += 1
      })
      socket.on('error', () => {})
    })
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()))
    const port = (silent.address() as net.AddressInfo).port
    try {
      // Only the abort ends it with this error: the channel's own SMTP timeouts (15 s and more) word it otherwise.
      const r = await emailChannel.send(
        settings({ smtpport: port, smtpsecurity: 'none' }),
        notification,
        message,
        ctx({ signal: AbortSignal.timeout(300) })
      )
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.error).toMatch(new RegExp(`^sending to 127\\.0\\.0\\.1:${port} aborted \\(.*timeout.*\\)$`))
      await expect.poll(() => closed, { timeout: 10_000 }).toBe(1)
      expect(sockets).toHaveLength(1)
    } finally {
      for (const s of sockets) s.destroy()
      await new Promise<void>((r) => silent.close(() => r()))
    }
  })

  it('does not connect at all with a signal already aborted', async () => {
    const c = new AbortController()
    c.abort()
    const r = await emailChannel.send(settings({ smtpport: 9, smtpsecurity: 'none' }), notification, message, ctx({ signal: c.signal }))
    expect(r).toEqual({ ok: false, error: 'aborted before connecting to 127.0.0.1:9' })
  })

  it("adds users' addresses through userEmails, without duplicates", async () => {
    const s = await smtp()
    try {
      const asked: number[][] = []
      const userEmails = (ids: readonly number[]) => {
        asked.push([...ids])
        return ['alice@example.com', 'OPS@example.com']
      }
      const r = await emailChannel.send(
        settings({ smtpport: s.port, smtpsecurity: 'none', userid: ['3', '4'] }),
        notification,
        message,
        ctx({ userEmails })
      )
      expect(r.ok).toBe(true)
      expect(asked).toEqual([[3, 4]])
      expect(s.received[0].session.to).toEqual(['ops@example.com', 'alice@example.com'])

      const onlyUsers = settings({ smtpport: s.port, smtpsecurity: 'none', to: undefined, userid: 5 })
      const none = await emailChannel.send(onlyUsers, notification, message, ctx({ userEmails: () => [] }))
      expect(none).toMatchObject({ ok: false, error: 'no recipient: users 5: 0 with an e-mail address' })
      const noLookup = await emailChannel.send(onlyUsers, notification, message, ctx())
      expect(noLookup.ok).toBe(false)
      if (!noLookup.ok) expect(noLookup.error).toMatch(/userid/)
    } finally {
      await s.close()
    }
  })
})

describe('the message in words', () => {
  it('sends a plain-text and an HTML part, each recipient who set a time zone a message in it', async () => {
    const s = await smtp()
    try {
      const words = (timeZone: string) =>
        renderMessage({ subject: null, body: null }, notification, { timeZone, consoleUrl: 'http://overseer.test/', failing: [] })
      const r = await emailChannel.send(
        settings({ smtpport: s.port, smtpsecurity: 'none', to: 'ops@example.com', userid: ['3', '4'] }),
        notification,
        words('UTC'),
        ctx({
          userEmails: () => ['alice@example.com', 'bob@example.com'],
          userTimeZones: () => new Map([['alice@example.com', 'Asia/Tokyo']]),
          messageIn: words
        })
      )
      expect(r.ok).toBe(true)
      expect(s.received.map((m) => m.session.to)).toEqual([['ops@example.com', 'bob@example.com'], ['alice@example.com']])
      const [server, alice] = s.received.map((m) => m.raw)
      expect(header(server, 'Subject')).toBe('[Overseer] process sleeper does not exist on web-1')
      expect(partBody(server, 'text/plain')).toContain('* Fri, 15 Jan 2027, 08:00:00 UTC: process sleeper does not exist on web-1')
      expect(partBody(server, 'text/html')).toContain('<td>Fri, 15 Jan 2027, 08:00:00 UTC</td>')
      expect(partBody(alice, 'text/plain')).toContain('* Fri, 15 Jan 2027, 17:00:00 GMT+9: process sleeper does not exist on web-1')
      expect(partBody(alice, 'text/html')).toContain('href="http://overseer.test/#/hosts/1/services/sleeper"')
      // Two messages of one notification: two Message-IDs, the same notification header.
      expect(header(server, 'Message-ID')).not.toBe(header(alice, 'Message-ID'))
      expect(header(alice, 'X-Overseer-Notification')).toBe('n-42')
      if (r.ok) expect(r.log).toMatch(/accepted the message in Asia\/Tokyo for alice@example.com/)
    } finally {
      await s.close()
    }
  })
})

describe('email settings', () => {
  const base = { smtphost: 'smtp.example.com', from: 'overseer@example.com', to: 'ops@example.com' }
  const issue = (args: Record<string, unknown>) => {
    const r = emailSettings.safeParse({ ...base, ...args })
    return r.success ? undefined : `${String(r.error.issues[0].path[0])}: ${r.error.issues[0].message}`
  }

  it('takes form arguments and its own stored JSON alike, with defaults', () => {
    const parsed = emailSettings.parse({
      ...base,
      smtpport: '2525',
      to: ['a@example.com', 'b@example.com'],
      userid: ['7'],
      smtptlsverify: 'false',
      smtpuser: ''
    })
    expect(parsed).toEqual({
      smtphost: 'smtp.example.com',
      smtpport: 2525,
      smtpsecurity: 'starttls',
      smtptlsverify: false,
      smtpuser: undefined,
      smtppassword: undefined,
      from: 'overseer@example.com',
      to: ['a@example.com', 'b@example.com'],
      userid: [7]
    })
    expect(emailSettings.parse(JSON.parse(JSON.stringify(parsed)))).toEqual(parsed)
    expect(emailSettings.parse({ ...base, to: '', smtpsecurity: 'TLS', userid: ['1'] })).toMatchObject({
      smtpsecurity: 'tls',
      to: [],
      userid: [1]
    })
  })

  it('refuses bad settings with clear messages', () => {
    expect(issue({ smtpport: '0' })).toBe('smtpport: expected a port number from 1 to 65535')
    expect(issue({ smtpport: '70000' })).toBe('smtpport: expected a port number from 1 to 65535')
    expect(issue({ smtpport: 'smtp' })).toBe('smtpport: expected a port number from 1 to 65535')
    expect(issue({ smtpsecurity: 'ssl' })).toBe('smtpsecurity: expected one of none, starttls, tls')
    expect(issue({ to: undefined })).toBe('to: at least one recipient is required (to, userid or both)')
    expect(issue({ to: ['', ''] })).toBe('to: at least one recipient is required (to, userid or both)')
    expect(issue({ to: 'not an address' })).toMatch(/^to: "not an address": expected an e-mail address/)
    expect(issue({ to: 'a@example.com\r\nBcc: x@evil.example' })).toMatch(/^to: .*control characters/)
    expect(issue({ from: undefined })).toBe('from: is required')
    expect(issue({ smtphost: '' })).toBe('smtphost: is required')
    expect(issue({ smtphost: 'smtp example' })).toBe('smtphost: expected a host name or IP address')
    expect(issue({ smtppassword: 'x' })).toBe('smtpuser: is required with smtppassword')
    expect(issue({ smtpuser: 'x' })).toBe('smtppassword: is required with smtpuser')
    expect(issue({ userid: 'bob' })).toMatch(/^userid: "bob": expected a user id/)
    expect(issue({ smtptlsverify: 'maybe' })).toBe('smtptlsverify: expected true or false')
    expect(issue({ to: Array.from({ length: 101 }, (_, i) => `u${i}@example.com`) })).toBe('to: at most 100 values')
  })

  it('words the errors that need a slow or broken network', () => {
    const err = (props: Record<string, unknown>) => Object.assign(new Error(String(props.message ?? 'x')), props)
    expect(describeError(err({ code: 'ETIMEDOUT', timeoutType: 'GREETING_TIMEOUT' }), 'mx:25')).toBe(
      'mx:25: no greeting from the server within 15 s'
    )
    expect(describeError(err({ code: 'ETIMEDOUT', timeoutType: 'CONNECT_TIMEOUT' }), 'mx:25')).toBe('mx:25: no connection within 15 s')
    expect(describeError(err({ code: 'EDNS', originalCode: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND mx' }), 'mx:25')).toBe(
      'mx:25: cannot resolve the host name (getaddrinfo ENOTFOUND mx)'
    )
    expect(describeError(err({ code: 'EMESSAGE', response: '552 5.3.4 Message too big' }), 'mx:25')).toBe(
      'mx:25: message refused: 552 5.3.4 Message too big'
    )
    expect(describeError(err({ code: 'EENVELOPE', command: 'MAIL FROM', response: '553 5.7.1 Sender not allowed' }), 'mx:25')).toBe(
      'mx:25: sender refused: 553 5.7.1 Sender not allowed'
    )
    expect(messageIdOf('n-1', 'alerts@bücher.example')).toBe('<overseer.n-1@xn--bcher-kva.example>')
  })

  it('parses mailboxes', () => {
    expect(parseMailbox('ops@example.com')).toEqual({ address: 'ops@example.com' })
    expect(parseMailbox('"Ops team" <ops@example.com>')).toEqual({ name: 'Ops team', address: 'ops@example.com' })
    expect(parseMailbox('ops@')).toBeUndefined()
    expect(parseMailbox('a@b, c@d')).toBeUndefined()
  })
})
