// The telegram channel against a real receiver on 127.0.0.1 answering as the Bot API does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { telegram, telegramText } from '../../../../src/server/alerting/channels/telegram'
import { failed, httpFailureCases, messageOf, refusal, send, withSignal } from '../../../support/http-channel-cases'
import { reply, startReceiver, type Receiver } from '../../../support/http-receiver'

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'
const sent = { ok: true, result: { message_id: 77, chat: { id: -1001234567890, type: 'supergroup' }, date: 1_800_000_000, text: '…' } }

describe('telegram channel', () => {
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver.close()
  })

  it('POSTs sendMessage as JSON to <apiurl>/bot<token>/sendMessage', async () => {
    receiver.respond(reply(200, sent))
    const result = await send(telegram, { apiurl: receiver.url, token: TOKEN, chatid: '-1001234567890' })
    expect(result).toMatchObject({ ok: true, log: expect.stringMatching(/^Telegram answered 200 in \d+ ms: \{"ok":true/) })
    const req = receiver.requests.at(-1)!
    expect(req.method).toBe('POST')
    expect(req.path).toBe(`/bot${TOKEN}/sendMessage`)
    expect(req.headers['content-type']).toBe('application/json')
    const { subject, body } = messageOf(failed)
    expect(req.json()).toEqual({ chat_id: -1001234567890, text: `${subject}\n\n${body.trimEnd()}`, disable_web_page_preview: true })
  })

  it('sends a @channelusername as text and cuts the text to 4096 characters cleanly', async () => {
    receiver.respond(reply(200, sent))
    const settings = telegram.settings.parse({ apiurl: receiver.url, token: TOKEN, chatid: '@overseer_alerts' })
    const body = Array.from({ length: 400 }, (_, i) => `* host-${i} · svc: failed ✓`).join('\n')
    expect((await telegram.send(settings, failed, { subject: 'many', body }, withSignal())).ok).toBe(true)
    const payload = receiver.requests.at(-1)!.json()
    expect(payload.chat_id).toBe('@overseer_alerts')
    expect(payload.text.length).toBeLessThanOrEqual(4096)
    expect(payload.text.length).toBeGreaterThan(4000)
    expect(payload.text.endsWith('failed ✓…')).toBe(true)
    expect(telegramText('s', 'x'.repeat(9000)).length).toBe(4096)
  })

  it('reports Telegram\'s description, for an error status and for {"ok": false} alike', async () => {
    receiver.respond(reply(400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' }))
    expect(await send(telegram, { apiurl: receiver.url, token: TOKEN, chatid: '42' })).toMatchObject({
      ok: false,
      error: 'Telegram answered 400: Bad Request: chat not found'
    })
    receiver.respond(reply(200, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' }))
    expect(await send(telegram, { apiurl: receiver.url, token: TOKEN, chatid: '42' })).toMatchObject({
      ok: false,
      error: 'Telegram answered 200: Forbidden: bot was blocked by the user'
    })
    receiver.respond(
      reply(429, { ok: false, error_code: 429, description: 'Too Many Requests: retry after 7', parameters: { retry_after: 7 } })
    )
    expect(await send(telegram, { apiurl: receiver.url, token: TOKEN, chatid: '42' })).toMatchObject({
      ok: false,
      error: 'Telegram answered 429: Too Many Requests: retry after 7 (retry after 7 s)'
    })
  })

  it('never shows the bot token in an error or a log', async () => {
    receiver.respond(reply(401, { ok: false, error_code: 401, description: 'Unauthorized' }))
    const answered = await send(telegram, { apiurl: receiver.url, token: TOKEN, chatid: '42' })
    expect(answered).toMatchObject({ ok: false, error: 'Telegram answered 401: Unauthorized' })
    expect(JSON.stringify(answered)).not.toContain('AAHdq')
    expect(telegram.secretFields).toEqual(['token'])
  })

  it('defaults the API URL, and refuses a bad token, chat id or API URL', () => {
    const parsed = telegram.settings.parse({ token: TOKEN, chatid: -100123 })
    expect(parsed).toEqual({ apiurl: 'https://api.telegram.org', token: TOKEN, chatid: '-100123' })
    expect(telegram.settings.parse(parsed)).toEqual(parsed)
    expect(refusal(telegram, { chatid: '1' })).toEqual({ path: 'token', message: 'token is required' })
    expect(refusal(telegram, { token: 'not-a-token', chatid: '1' })).toEqual({
      path: 'token',
      message: 'token must be a bot token as BotFather gives it, like 123456789:AAH…'
    })
    expect(refusal(telegram, { token: TOKEN })).toEqual({ path: 'chatid', message: 'chatid is required' })
    expect(refusal(telegram, { token: TOKEN, chatid: '' })).toEqual({ path: 'chatid', message: 'chatid is required' })
    expect(refusal(telegram, { token: TOKEN, chatid: 'my group' })).toMatchObject({
      path: 'chatid',
      message: expect.stringMatching(/^chatid must be a numeric chat id/)
    })
    expect(refusal(telegram, { apiurl: 'api.telegram.org', token: TOKEN, chatid: '1' })).toEqual({
      path: 'apiurl',
      message: 'apiurl must be an http:// or https:// URL'
    })
  })
})

httpFailureCases(telegram, (base) => ({ apiurl: base, token: TOKEN, chatid: '42' }))
