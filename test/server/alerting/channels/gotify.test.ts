// The gotify channel against a real receiver on 127.0.0.1 answering as a Gotify server does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gotify } from '../../../../src/server/alerting/channels/gotify'
import { failed, httpFailureCases, messageOf, recovered, refusal, send } from '../../../support/http-channel-cases'
import { reply, startReceiver, type Receiver } from '../../../support/http-receiver'

const stored = { id: 25, appid: 5, message: '…', title: '…', priority: 8, date: '2027-01-15T08:00:00Z' }

describe('gotify channel', () => {
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver.close()
  })

  it('POSTs the message as JSON to <url>/message with the app token in X-Gotify-Key', async () => {
    receiver.respond(reply(200, stored))
    const result = await send(gotify, { url: receiver.url, token: 'AzyoeNS.D4iJLVa' })
    expect(result).toMatchObject({ ok: true, log: expect.stringMatching(/^Gotify answered 200 in \d+ ms: \{"id":25/) })
    const req = receiver.requests.at(-1)!
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/message')
    expect(req.headers['content-type']).toBe('application/json')
    expect(req.headers['x-gotify-key']).toBe('AzyoeNS.D4iJLVa')
    const { subject, body } = messageOf(failed)
    expect(req.json()).toEqual({
      title: subject,
      message: body.trimEnd(),
      priority: 8,
      extras: {
        'client::display': { contentType: 'text/plain' },
        'client::notification': { click: { url: 'http://overseer.test:8080/#/events/42' } }
      }
    })
  })

  it('uses priority 5 for a recovery, the set priority when there is one, and keeps a path prefix', async () => {
    receiver.respond(reply(200, stored))
    await send(gotify, { url: `${receiver.url}/gotify/`, token: 't' }, recovered)
    let req = receiver.requests.at(-1)!
    expect(req.path).toBe('/gotify/message')
    expect(req.json().priority).toBe(5)
    await send(gotify, { url: receiver.url, token: 't', priority: '10' })
    req = receiver.requests.at(-1)!
    expect(req.json().priority).toBe(10)
  })

  it("reports Gotify's error and its description", async () => {
    receiver.respond(
      reply(401, {
        error: 'Unauthorized',
        errorCode: 401,
        errorDescription: 'you need to provide a valid access token or user credentials to access this api'
      })
    )
    expect(await send(gotify, { url: receiver.url, token: 'wrong' })).toMatchObject({
      ok: false,
      error: 'Gotify answered 401: Unauthorized: you need to provide a valid access token or user credentials to access this api'
    })
  })

  it('refuses a missing URL or token and a priority out of range', () => {
    expect(refusal(gotify, { token: 't' })).toEqual({ path: 'url', message: 'url is required' })
    expect(refusal(gotify, { url: 'gotify.lan', token: 't' })).toEqual({ path: 'url', message: 'url must be an http:// or https:// URL' })
    expect(refusal(gotify, { url: 'https://gotify.lan' })).toEqual({ path: 'token', message: 'token is required' })
    expect(refusal(gotify, { url: 'https://gotify.lan', token: '' })).toEqual({ path: 'token', message: 'token is required' })
    expect(refusal(gotify, { url: 'https://gotify.lan', token: 'a b' })).toMatchObject({ path: 'token' })
    for (const p of ['11', '-1', 'high', 2.5]) {
      expect(refusal(gotify, { url: 'https://gotify.lan', token: 't', priority: p })).toEqual({
        path: 'priority',
        message: 'priority must be a whole number from 0 to 10'
      })
    }
    const parsed = gotify.settings.parse({ url: 'https://gotify.lan', token: ' tok ', priority: '' })
    expect(parsed).toEqual({ url: 'https://gotify.lan', token: 'tok', priority: undefined })
    expect(gotify.settings.parse(parsed)).toEqual(parsed)
    expect(gotify.secretFields).toEqual(['token'])
  })
})

httpFailureCases(gotify, (base) => ({ url: base, token: 'tok' }))
