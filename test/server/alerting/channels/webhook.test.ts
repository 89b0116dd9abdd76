// The webhook channel against a real receiver on 127.0.0.1 that checks the request and verifies the
// HMAC signature the way a receiver would (raw body, constant-time compare).
import { createHmac, timingSafeEqual } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webhook } from '../../../../src/server/alerting/channels/webhook'
import { failed, httpFailureCases, recovered, refusal, send } from '../../../support/http-channel-cases'
import { reply, startReceiver, type ReceivedRequest, type Receiver } from '../../../support/http-receiver'

/** What a receiver does: HMAC over the exact bytes received, compared in constant time. */
function verified(req: ReceivedRequest, secret: string): boolean {
  const header = String(req.headers['x-overseer-signature'] ?? '')
  const expected = 'sha256=' + createHmac('sha256', secret).update(req.body).digest('hex')
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected))
}

describe('webhook channel', () => {
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver.close()
  })

  it('POSTs the notification verbatim as JSON with its stable id in a header', async () => {
    receiver.respond(reply(204))
    const result = await send(webhook, { url: `${receiver.url}/hooks/overseer?team=ops` })
    expect(result).toMatchObject({ ok: true, log: expect.stringMatching(/^127\.0\.0\.1:\d+ answered 204 in \d+ ms$/) })
    const req = receiver.requests.at(-1)!
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/hooks/overseer?team=ops')
    expect(req.headers['content-type']).toBe('application/json')
    expect(req.headers['x-overseer-notification']).toBe(failed.id)
    expect(req.headers['x-overseer-signature']).toBeUndefined()
    expect(req.json()).toEqual(failed)
    expect(req.text).toBe(JSON.stringify(failed))
    expect(Object.keys(req.json())).toEqual(['id', 'summary', 'link', 'alerts'])
    expect(Object.keys(req.json().alerts[0])).toEqual([
      'hostid',
      'host',
      'serviceid',
      'service',
      'servicetype',
      'event',
      'state',
      'message',
      'date',
      'link'
    ])
  })

  it('signs the exact body bytes with the secret; the receiver verifies it and refuses a wrong secret', async () => {
    receiver.respond((req, res) => {
      if (verified(req, 's3cret-shared')) {
        res.writeHead(200)
        res.end('thanks')
      } else {
        res.writeHead(401)
        res.end('bad signature')
      }
    })
    const unicode = { ...recovered, summary: 'mysqld succeeded on db-1 · Zürich ✓' }
    expect(await send(webhook, { url: receiver.url, secret: 's3cret-shared' }, unicode)).toMatchObject({ ok: true })
    const req = receiver.requests.at(-1)!
    expect(req.headers['x-overseer-signature']).toMatch(/^sha256=[0-9a-f]{64}$/)
    expect(req.json()).toEqual(unicode)

    const wrong = await send(webhook, { url: receiver.url, secret: 'not-the-secret' })
    expect(wrong).toEqual({ ok: false, error: `127.0.0.1:${receiver.port} answered 401: bad signature`, log: expect.any(String) })
  })

  it('sends the same id on every retry of a notification so that receivers can de-duplicate', async () => {
    receiver.respond(reply(200))
    await send(webhook, { url: receiver.url })
    await send(webhook, { url: receiver.url })
    const [a, b] = receiver.requests.slice(-2)
    expect(a.headers['x-overseer-notification']).toBe(b.headers['x-overseer-notification'])
    expect(a.text).toBe(b.text)
  })

  it('adds custom headers, repeated ones joined', async () => {
    receiver.respond(reply(202))
    const result = await send(webhook, {
      url: receiver.url,
      header: ['Authorization: Bearer abc.def', 'X-Team:  ops ', 'X-Tag: a', 'X-Tag: b', '']
    })
    expect(result.ok).toBe(true)
    const req = receiver.requests.at(-1)!
    expect(req.headers.authorization).toBe('Bearer abc.def')
    expect(req.headers['x-team']).toBe('ops')
    expect(req.headers['x-tag']).toBe('a, b')
  })

  it('reports a non-2xx answer with its status and a short excerpt of the body', async () => {
    receiver.respond(reply(500, `<html><body><h1>Internal Server Error</h1>${'x'.repeat(1000)}</body></html>`))
    const result = await send(webhook, { url: receiver.url })
    expect(result.ok).toBe(false)
    const error = !result.ok ? result.error : ''
    expect(error).toMatch(new RegExp(`^127\\.0\\.0\\.1:${receiver.port} answered 500: <html><body><h1>Internal Server Error</h1>x+…$`))
    expect(error.length).toBeLessThan(260)

    receiver.respond(reply(422, { error: 'unknown host db-1' }))
    expect(await send(webhook, { url: receiver.url })).toMatchObject({
      ok: false,
      error: `127.0.0.1:${receiver.port} answered 422: unknown host db-1`
    })
  })

  it('refuses bad settings with a clear message', () => {
    expect(refusal(webhook, {})).toEqual({ path: 'url', message: 'url is required' })
    expect(refusal(webhook, { url: 'ftp://example.com/x' })).toEqual({ path: 'url', message: 'url must be an http:// or https:// URL' })
    expect(refusal(webhook, { url: 'not a url' })).toMatchObject({ message: 'url must be an http:// or https:// URL' })
    expect(refusal(webhook, { url: 'https://x.test', header: ['NoColonHere'] })).toEqual({
      path: 'header.0',
      message: 'header "NoColonHere" is not of the form "Name: value"'
    })
    expect(refusal(webhook, { url: 'https://x.test', header: ['Bad Name: v'] })).toMatchObject({
      message: 'header name "Bad Name" is not a valid HTTP header name'
    })
    expect(refusal(webhook, { url: 'https://x.test', header: ['X-A: ok', 'X-Evil: a\r\nInjected: 1'] })).toMatchObject({
      path: 'header.1',
      message: expect.stringMatching(/^header "X-Evil" has a value with line breaks/)
    })
    expect(refusal(webhook, { url: 'https://x.test', header: ['X-Overseer-Signature: forged'] })).toMatchObject({
      message: 'header "X-Overseer-Signature" is set by Overseer and cannot be replaced'
    })
    expect(refusal(webhook, { url: 'https://x.test', header: ['Content-Type: text/plain'] })).toMatchObject({
      message: 'header "Content-Type" is set by Overseer and cannot be replaced'
    })
  })

  it('keeps valid settings as given, an empty secret meaning none; its output is valid input again', () => {
    const parsed = webhook.settings.parse({ url: ' https://hooks.example.com/x ', header: ['X-A: 1'], secret: '' })
    expect(parsed).toEqual({ url: 'https://hooks.example.com/x', header: ['X-A: 1'], secret: undefined })
    expect(webhook.settings.parse(parsed)).toEqual(parsed)
    expect(webhook.settings.parse({ url: 'http://127.0.0.1:9000' })).toEqual({
      url: 'http://127.0.0.1:9000',
      header: [],
      secret: undefined
    })
    expect(webhook.secretFields).toEqual(['secret'])
  })
})

httpFailureCases(webhook, (base) => ({ url: `${base}/hook`, secret: 'k' }))
