// The discord channel against a real receiver on 127.0.0.1 answering as Discord's webhooks do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { discord, discordContent } from '../../../../src/server/alerting/channels/discord'
import { failed, httpFailureCases, messageOf, refusal, send, withSignal } from '../../../support/http-channel-cases'
import { reply, startReceiver, type Receiver } from '../../../support/http-receiver'

describe('discord channel', () => {
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver.close()
  })

  it('POSTs {"content", "allowed_mentions"} as JSON; 204 No Content is a delivery', async () => {
    receiver.respond(reply(204))
    const result = await send(discord, { url: `${receiver.url}/api/webhooks/123/tok-en` })
    expect(result).toMatchObject({ ok: true, log: expect.stringMatching(/^Discord answered 204 in \d+ ms$/) })
    const req = receiver.requests.at(-1)!
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/api/webhooks/123/tok-en')
    expect(req.headers['content-type']).toBe('application/json')
    const payload = req.json()
    const { subject, body } = messageOf(failed)
    expect(payload).toEqual({ content: `**${subject}**\n${body.trimEnd()}`, allowed_mentions: { parse: [] } })
    expect(payload.content.length).toBeLessThanOrEqual(2000)
  })

  it('cuts content to 2000 characters cleanly, never inside a character', async () => {
    receiver.respond(reply(204))
    const body = Array.from({ length: 200 }, (_, i) => `* host-${i} · svc 🔥: Nonexist failed`).join('\n')
    const settings = discord.settings.parse({ url: receiver.url })
    expect((await discord.send(settings, failed, { subject: 'many *failed*', body }, withSignal())).ok).toBe(true)
    const content: string = receiver.requests.at(-1)!.json().content
    expect(content.length).toBeLessThanOrEqual(2000)
    expect(content.length).toBeGreaterThan(1900)
    expect(content.startsWith('**many \\*failed\\***\n* host-0')).toBe(true)
    expect(content.endsWith('Nonexist failed…')).toBe(true)
    expect(content).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/)
    expect(discordContent('s', 'x'.repeat(5000)).length).toBe(2000)
  })

  it("reports Discord's error message and code, and the field a 400 names", async () => {
    receiver.respond(reply(404, { message: 'Unknown Webhook', code: 10015 }))
    expect(await send(discord, { url: receiver.url })).toMatchObject({
      ok: false,
      error: 'Discord answered 404: Unknown Webhook (code 10015)'
    })
    receiver.respond(
      reply(400, {
        code: 50035,
        errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } },
        message: 'Invalid Form Body'
      })
    )
    expect(await send(discord, { url: receiver.url })).toMatchObject({
      ok: false,
      error: 'Discord answered 400: Invalid Form Body (code 50035): content: Must be 2000 or fewer in length.'
    })
  })

  it('reports a rate limit with retry_after', async () => {
    receiver.respond(reply(429, { message: 'You are being rate limited.', retry_after: 1.234, global: false }, { 'Retry-After': '2' }))
    expect(await send(discord, { url: receiver.url })).toMatchObject({
      ok: false,
      error: 'Discord answered 429: You are being rate limited. (retry after 1.2 s)'
    })
  })

  it('keeps the URL, a credential, out of error texts', async () => {
    receiver.respond(reply(401, { message: 'Invalid Webhook Token', code: 50027 }))
    const result = await send(discord, { url: `${receiver.url}/api/webhooks/123/SECRETTOKEN` })
    expect(JSON.stringify(result)).not.toContain('SECRETTOKEN')
    expect(discord.secretFields).toEqual(['url'])
  })

  it('refuses a missing or bad URL', () => {
    expect(refusal(discord, {})).toEqual({ path: 'url', message: 'url is required' })
    expect(refusal(discord, { url: 'discord.com/api/webhooks/1/x' })).toEqual({
      path: 'url',
      message: 'url must be an http:// or https:// URL'
    })
  })
})

httpFailureCases(discord, (base) => ({ url: `${base}/api/webhooks/1/t` }))
