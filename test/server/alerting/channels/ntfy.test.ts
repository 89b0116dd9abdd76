// The ntfy channel against a real receiver on 127.0.0.1 answering as an ntfy server does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ntfy } from '../../../../src/server/alerting/channels/ntfy'
import { failed, httpFailureCases, messageOf, recovered, refusal, send, withSignal } from '../../../support/http-channel-cases'
import { reply, startReceiver, type Receiver } from '../../../support/http-receiver'

const published = (topic: string) => ({ id: 'hwQ2YpKdmg', time: 1_800_000_000, event: 'message', topic })

describe('ntfy channel', () => {
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver.close()
  })

  it('publishes as JSON to the root URL: topic, title, message, priority, tags, click', async () => {
    receiver.respond(reply(200, published('overseer-alerts')))
    const result = await send(ntfy, { url: receiver.url, topic: 'overseer-alerts' })
    expect(result).toMatchObject({ ok: true, log: expect.stringMatching(/^ntfy answered 200 in \d+ ms: \{"id":"hwQ2YpKdmg"/) })
    const req = receiver.requests.at(-1)!
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/')
    expect(req.headers['content-type']).toBe('application/json')
    expect(req.headers.authorization).toBeUndefined()
    const { subject, body } = messageOf(failed)
    expect(req.json()).toEqual({
      topic: 'overseer-alerts',
      title: subject,
      message: body.trimEnd(),
      priority: 4,
      tags: ['rotating_light'],
      click: 'http://overseer.test:8080/#/events/42'
    })
  })

  it('marks a recovery with a check mark at default priority; a set priority wins; a token goes as Bearer', async () => {
    receiver.respond(reply(200, published('t')))
    await send(ntfy, { url: receiver.url, topic: 't', token: 'tk_abc123' }, recovered)
    let req = receiver.requests.at(-1)!
    expect(req.headers.authorization).toBe('Bearer tk_abc123')
    expect(req.json()).toMatchObject({ priority: 3, tags: ['white_check_mark'] })

    await send(ntfy, { url: receiver.url, topic: 't', priority: 'urgent' }, recovered)
    req = receiver.requests.at(-1)!
    expect(req.json()).toMatchObject({ priority: 5, tags: ['white_check_mark'] })

    await send(ntfy, { url: receiver.url, topic: 't', priority: '2' }, { ...failed, alerts: [{ ...failed.alerts[0], state: 'changed' }] })
    expect(receiver.requests.at(-1)!.json()).toMatchObject({ priority: 2, tags: ['warning'] })
  })

  it("keeps a server's path prefix, leaves out a relative link, and cuts the message to 4096 bytes", async () => {
    receiver.respond(reply(200, published('t')))
    const settings = ntfy.settings.parse({ url: `${receiver.url}/ntfy/`, topic: 't' })
    const body = 'Zürich · ✓ '.repeat(1000)
    const result = await ntfy.send(settings, { ...failed, link: '/#/events/42' }, { subject: 'ü', body }, withSignal())
    expect(result.ok).toBe(true)
    const req = receiver.requests.at(-1)!
    expect(req.path).toBe('/ntfy/')
    const payload = req.json()
    expect(payload.click).toBeUndefined()
    expect(Buffer.byteLength(payload.message)).toBeLessThanOrEqual(4096)
    expect(Buffer.byteLength(payload.message)).toBeGreaterThan(4000)
    expect(payload.message.endsWith('…')).toBe(true)
    expect(payload.title).toBe('ü')
  })

  it("reports ntfy's error words and code", async () => {
    receiver.respond(reply(403, { code: 40301, http: 403, error: 'forbidden', link: 'https://ntfy.sh/docs/publish/#authentication' }))
    expect(await send(ntfy, { url: receiver.url, topic: 't' })).toMatchObject({
      ok: false,
      error: 'ntfy answered 403: forbidden (code 40301)'
    })
    receiver.respond(reply(429, { code: 42901, http: 429, error: 'limit reached: too many requests' }))
    expect(await send(ntfy, { url: receiver.url, topic: 't' })).toMatchObject({
      ok: false,
      error: 'ntfy answered 429: limit reached: too many requests (code 42901)'
    })
  })

  it('accepts the documented priorities and defaults the server to https://ntfy.sh', () => {
    const parse = (priority: unknown) => ntfy.settings.parse({ topic: 'x', priority }).priority
    expect([parse('min'), parse('low'), parse('default'), parse('high'), parse('urgent'), parse('max'), parse('HIGH')]).toEqual([
      1, 2, 3, 4, 5, 5, 4
    ])
    expect([parse('1'), parse(5), parse(''), parse(undefined)]).toEqual([1, 5, undefined, undefined])
    const parsed = ntfy.settings.parse({ url: '', topic: 'phone', priority: 'high', token: '' })
    expect(parsed).toEqual({ url: 'https://ntfy.sh', topic: 'phone', priority: 4, token: undefined })
    expect(ntfy.settings.parse(parsed)).toEqual(parsed)
    expect(ntfy.secretFields).toEqual(['token'])
  })

  it('refuses a missing topic, a bad topic, a priority out of range and a bad URL', () => {
    expect(refusal(ntfy, { url: 'https://ntfy.sh' })).toEqual({ path: 'topic', message: 'topic is required' })
    expect(refusal(ntfy, { topic: '  ' })).toEqual({ path: 'topic', message: 'topic is required' })
    expect(refusal(ntfy, { topic: 'has space' })).toEqual({ path: 'topic', message: 'topic must be 1–64 letters, digits, "_" or "-"' })
    expect(refusal(ntfy, { topic: 'x'.repeat(65) })).toMatchObject({ path: 'topic' })
    for (const p of ['0', '6', 9, 'loud', '3.5']) {
      expect(refusal(ntfy, { topic: 'x', priority: p })).toEqual({
        path: 'priority',
        message: 'priority must be 1–5 or min, low, default, high, urgent'
      })
    }
    expect(refusal(ntfy, { url: 'ntfy.sh', topic: 'x' })).toEqual({ path: 'url', message: 'url must be an http:// or https:// URL' })
  })
})

httpFailureCases(ntfy, (base) => ({ url: base, topic: 'alerts' }))
