// The jabber channel against Debian's prosody on 127.0.0.1 (test/support/prosody.ts): delivery over
// STARTTLS, direct TLS and an unencrypted stream, each recipient receiving the text once; and its errors
// in its own words: untrusted certificate, not-authorized, unknown recipient, connection refused, host not
// found, and a server that never speaks XMPP, given up when the signal aborts.
// Skipped only when /usr/bin/prosody is missing outside CI; in CI (CI set) a missing prosody fails.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertNotification } from '../../../../src/shared/api/alerts'
import type { RenderedMessage } from '../../../../src/server/alerting/channel'
import { channelType } from '../../../../src/server/alerting/channels'
import { chatText, jabber, jabberSettings, MAX_CHAT_CHARS, type JabberSettings } from '../../../../src/server/alerting/channels/jabber'
import { renderMessage } from '../../../../src/server/alerting/templates'
import { freePort } from '../../../support/ports'
import { waitFor } from '../../../support/wait'
import { prosodyAvailable, startProsody, startReceiver, PROSODY, type ProsodyServer, type Receiver } from '../../../support/prosody'

const skip = !prosodyAvailable() && !process.env.CI
if (skip) console.warn(`jabber channel tests SKIPPED: ${PROSODY} is missing (apt-get install prosody); in CI they fail instead`)

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
      message: 'process is not running <&>',
      date: 1_800_000_000,
      link: 'http://overseer.test/#/events/7'
    }
  ]
}
const message: RenderedMessage = renderMessage({ subject: null, body: null }, notification)
const expectedText = `${message.subject}\n\n${message.body.trimEnd()}`

const PASSWORDS = { overseer: 'sender-secret', bob: 'bob-pw', carol: 'carol-pw' }

function settings(server: ProsodyServer, extra: Record<string, unknown> = {}): JabberSettings {
  return jabberSettings.parse({
    jid: `overseer@${server.domain}`,
    password: PASSWORDS.overseer,
    to: [`bob@${server.domain}`],
    host: server.host,
    port: String(server.port),
    tlsverify: 'false',
    ...extra
  })
}

const send = (s: JabberSettings, signal = AbortSignal.timeout(10_000)) => jabber.send(s, notification, message, { signal })

describe('jabber channel settings', () => {
  it('is registered and takes form arguments as well as stored values', () => {
    expect(channelType('jabber')).toBe(jabber)
    expect(jabber.secretFields).toEqual(['password'])
    expect(jabberSettings.parse({ jid: ' ops@example.org ', password: 'p', to: ['a@example.org', 'b@example.com'] })).toEqual({
      jid: 'ops@example.org',
      password: 'p',
      to: ['a@example.org', 'b@example.com'],
      security: 'starttls',
      tlsverify: true
    })
    expect(
      jabberSettings.parse({ jid: 'a@b', password: 'p', to: ['c@d'], host: '[::1]', port: '5269', security: 'tls', tlsverify: 'no' })
    ).toMatchObject({ host: '::1', port: 5269, security: 'tls', tlsverify: false })
    expect(jabberSettings.parse({ jid: 'a@b', password: 'p', to: ['c@d'], port: 15222, tlsverify: false })).toMatchObject({
      port: 15222,
      tlsverify: false
    })
    const stored = jabberSettings.parse({
      jid: 'a@b',
      password: 'p',
      to: ['c@d'],
      host: 'xmpp.example.org',
      port: '5222',
      security: 'none',
      tlsverify: 'off'
    })
    expect(jabberSettings.parse(JSON.parse(JSON.stringify(stored)))).toEqual(stored) // stored as JSON, read back the same
  })

  it('refuses what cannot work, naming the setting', () => {
    const bad = (input: Record<string, unknown>) => {
      const r = jabberSettings.safeParse({ jid: 'a@b', password: 'p', to: ['c@d'], ...input })
      return r.success ? 'accepted' : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
    }
    expect(bad({ jid: 'example.org' })).toMatch(/^jid: expected the sender as a bare JID/)
    expect(bad({ jid: 'a@b/res' })).toMatch(/^jid: /)
    expect(bad({ to: [] })).toMatch(/^to: at least one recipient/)
    expect(bad({ to: ['ok@x', 'not a jid'] })).toMatch(/^to\.1: expected a recipient/)
    expect(bad({ password: '' })).toMatch(/^password: /)
    expect(bad({ port: '70000' })).toMatch(/^port: expected a port/)
    expect(bad({ security: 'ssl' })).toMatch(/^security: expected one of starttls, tls, none/)
    expect(bad({ tlsverify: 'maybe' })).toMatch(/^tlsverify: /)
    expect(bad({ host: 'a b' })).toMatch(/^host: /)
  })
})

describe.skipIf(skip)('jabber channel against prosody', () => {
  let server: ProsodyServer
  let bob: Receiver
  let carol: Receiver

  beforeAll(async () => {
    const t0 = Date.now()
    server = await startProsody({ users: PASSWORDS })
    bob = await startReceiver(server, 'bob', PASSWORDS.bob)
    carol = await startReceiver(server, 'carol', PASSWORDS.carol)
    console.log(
      `prosody (pid ${server.pid}) on 127.0.0.1:${server.port}/${server.tlsPort} and two receivers ready in ${Date.now() - t0} ms`
    )
  })

  afterAll(async () => {
    await bob?.stop()
    await carol?.stop()
    await server?.stop()
  })

  const fresh = () => {
    bob.messages.length = 0
    carol.messages.length = 0
  }

  it('delivers one chat message to each recipient over STARTTLS (self-signed certificate, tlsverify=false)', async () => {
    fresh()
    const t0 = Date.now()
    const result = await send(settings(server, { to: [bob.jid, carol.jid] }))
    expect(result).toMatchObject({ ok: true })
    expect(result.log).toMatch(/TLS/)
    expect(result.log).not.toMatch(/unencrypted/)
    for (const r of [bob, carol]) {
      const [m] = await r.waitFor(1)
      expect(m).toMatchObject({ to: expect.stringMatching(new RegExp(`^${r.jid}`)), type: 'chat', body: expectedText })
      // In words, as the e-mail and the other chat channels say it.
      expect(m.body).toMatch(/^\[Overseer\] process sleeper does not exist on web-1\n\nprocess sleeper does not exist on web-1\n/)
      expect(m.from).toMatch(new RegExp(`^overseer@${server.domain}/`))
      expect(m.id).toMatch(/^n-42-/)
    }
    // The send has ended: the server took all it sent; a second copy would have reached them before this.
    await Promise.all([bob.sync(), carol.sync()])
    expect(bob.messages).toHaveLength(1)
    expect(carol.messages).toHaveLength(1)
    console.log(`STARTTLS delivery to 2 recipients: ${Date.now() - t0} ms`)
  })

  it('delivers over direct TLS (security=tls) and over an unencrypted stream (security=none)', async () => {
    fresh()
    expect(await send(settings(server, { security: 'tls', port: server.tlsPort }))).toMatchObject({
      ok: true,
      log: expect.stringMatching(/, TLS/)
    })
    expect((await bob.waitFor(1))[0].body).toBe(expectedText)
    const plain = await send(settings(server, { security: 'none' }))
    expect(plain).toMatchObject({ ok: true, log: expect.stringMatching(/unencrypted/) })
    expect(plain.log).toMatch(/SASL SCRAM-SHA-1/) // never PLAIN in clear
    expect((await bob.waitFor(2))[1].body).toBe(expectedText)
  })

  it('drops characters XML cannot carry instead of breaking the stream', async () => {
    fresh()
    const result = await jabber.send(
      settings(server),
      notification,
      { subject: 'bell\x07', body: 'colour \x1b[31mred\x00 ünïcode 🚨\n' },
      { signal: AbortSignal.timeout(10_000) }
    )
    expect(result).toMatchObject({ ok: true })
    expect((await bob.waitFor(1))[0].body).toBe('bell\n\ncolour [31mred ünïcode 🚨')
  })

  it('refuses the self-signed certificate unless tlsverify=false', async () => {
    const result = await send(settings(server, { tlsverify: 'true' }))
    expect(result.ok).toBe(false)
    if (!result.ok)
      expect(result.error).toMatch(
        /TLS certificate of 127\.0\.0\.1:\d+ is not trusted for localhost: self-signed certificate.*tlsverify=false/
      )
  })

  it('says not-authorized for a wrong password', async () => {
    fresh()
    const result = await send(settings(server, { password: 'wrong' }))
    expect(result).toMatchObject({
      ok: false,
      error: `not-authorized: the server rejected the password for overseer@${server.domain} (or the account does not exist)`
    })
    await bob.sync()
    expect(bob.messages).toHaveLength(0)
  })

  it('reports a recipient the server returns, and still delivers to the others', async () => {
    fresh()
    const result = await send(settings(server, { to: [bob.jid, `nobody@${server.domain}`] }))
    expect(result).toMatchObject({
      ok: false,
      error: `the server returned messages to 1 of 2 recipients: nobody@${server.domain}: service-unavailable`
    })
    expect((await bob.waitFor(1))[0].body).toBe(expectedText)
  })

  it("names the stream error when the server does not serve the sender's domain", async () => {
    const result = await send(settings(server, { jid: 'overseer@example.org' }))
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^127\.0\.0\.1:\d+ refused the stream for example\.org: host-unknown/)
    })
  })

  it('says so when security=none meets a server that authenticates only after STARTTLS', async () => {
    const fake = await fakeServer((socket) => {
      socket.once('data', () =>
        socket.write(
          "<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' id='x' from='localhost' version='1.0'>" +
            "<stream:features><starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'><required/></starttls></stream:features>"
        )
      )
    })
    try {
      const result = await send(settings(server, { port: fake.port, security: 'none' }))
      expect(result).toMatchObject({
        ok: false,
        error: `127.0.0.1:${fake.port} requires TLS before authentication: set security=starttls (the default) or tls`
      })
    } finally {
      await fake.close()
    }
  })

  it('says so when the server does not offer STARTTLS and TLS is required', async () => {
    // a prosody without certificates would do; a fake server that offers no STARTTLS is quicker
    const fake = await fakeServer((socket) => {
      socket.once('data', () =>
        socket.write(
          "<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' id='x' from='localhost' version='1.0'>" +
            "<stream:features><mechanisms xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><mechanism>PLAIN</mechanism></mechanisms></stream:features>"
        )
      )
    })
    try {
      const result = await send(settings(server, { port: fake.port }))
      expect(result).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^127\.0\.0\.1:\d+ does not offer STARTTLS: set security=none/)
      })
    } finally {
      await fake.close()
    }
  })
})

describe('jabber chat text', () => {
  it('is the subject, a blank line and the body, or the body alone when it starts with the subject', () => {
    expect(chatText('[Overseer] x failed', 'x failed\n\n* web-1\n\n')).toBe('[Overseer] x failed\n\nx failed\n\n* web-1')
    expect(chatText('x failed', 'x failed on web-1\n')).toBe('x failed on web-1')
    expect(chatText('', 'only the body')).toBe('only the body')
    expect(chatText('s', 'b'.repeat(MAX_CHAT_CHARS + 10))).toMatch(/^s\n\nb+\n… \(truncated\)$/)
    expect(chatText('s', 'b'.repeat(MAX_CHAT_CHARS + 10))).toHaveLength(MAX_CHAT_CHARS + '\n… (truncated)'.length)
  })
})

describe('jabber channel without a server', () => {
  it('says connection refused when nothing listens', async () => {
    const port = await freePort()
    const result = await jabber.send(
      jabberSettings.parse({ jid: 'overseer@localhost', password: 'p', to: ['bob@localhost'], host: '127.0.0.1', port }),
      notification,
      message,
      { signal: AbortSignal.timeout(5000) }
    )
    expect(result).toMatchObject({
      ok: false,
      error: `connection refused by 127.0.0.1:${port}: is the XMPP server running and listening there?`
    })
  })

  it('says host not found for a name that does not resolve', async () => {
    const result = await jabber.send(
      jabberSettings.parse({ jid: 'overseer@localhost', password: 'p', to: ['bob@localhost'], host: 'no-such-host.invalid' }),
      notification,
      message,
      { signal: AbortSignal.timeout(8000) }
    )
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^host not found: no-such-host\.invalid/) })
  })

  for (const security of ['starttls', 'tls', 'none'] as const) {
    it(`gives up when the signal aborts, on a server that accepts TCP but never speaks XMPP (security=${security})`, async () => {
      const fake = await fakeServer(() => {})
      try {
        const s = jabberSettings.parse({
          jid: 'overseer@localhost',
          password: 'p',
          to: ['bob@localhost'],
          host: '127.0.0.1',
          port: fake.port,
          security
        })
        const t0 = Date.now()
        const result = await jabber.send(s, notification, message, { signal: AbortSignal.timeout(1000) })
        const elapsed = Date.now() - t0
        const phase = {
          starttls: 'waiting for the XMPP stream features of',
          tls: 'doing the TLS handshake with',
          none: 'opening the XMPP stream with'
        }[security]
        expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^timed out after \d+\.\d s while /) })
        if (!result.ok)
          expect(result.error.replace(/^timed out after \d+\.\d s while /, '')).toBe(
            `${phase} 127.0.0.1:${fake.port}${security === 'starttls' ? ' (STARTTLS)' : ''}`
          )
        // Only the signal ends it with this error: the channel's own limits (10 s a step, 30 s in all) word
        // it otherwise or outlast the test.
        expect(elapsed).toBeGreaterThanOrEqual(950)
        await waitFor('our socket closed, not left behind', () => fake.open() === 0, 10_000, 20)
      } finally {
        await fake.close()
      }
    })
  }

  it('says aborted (not timed out) when the caller aborts for another reason', async () => {
    const fake = await fakeServer(() => {})
    try {
      const controller = new AbortController()
      setTimeout(() => controller.abort(new Error('server stopping')), 300)
      const s = jabberSettings.parse({
        jid: 'overseer@localhost',
        password: 'p',
        to: ['bob@localhost'],
        host: '127.0.0.1',
        port: fake.port
      })
      const result = await jabber.send(s, notification, message, { signal: controller.signal })
      expect(result).toMatchObject({
        ok: false,
        error: expect.stringMatching(
          /^aborted after \d+\.\d s while waiting for the XMPP stream features of 127\.0\.0\.1:\d+ \(STARTTLS\) \(server stopping\)$/
        )
      })
    } finally {
      await fake.close()
    }
  })
})

async function fakeServer(onConnection: (socket: net.Socket) => void) {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    onConnection(socket)
    socket.resume() // reading, so that the client's close is seen
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    open: () => sockets.size,
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
