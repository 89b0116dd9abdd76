// The slack channel against a real receiver on 127.0.0.1 answering as Slack's incoming webhooks do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { slack, slackEscape, slackText } from '../../../../src/server/alerting/channels/slack'
import { failed, httpFailureCases, messageOf, refusal, send } from '../../../support/http-channel-cases'
import { reply, startReceiver, type Receiver } from '../../../support/http-receiver'

describe('slack channel', () => {
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver.close()
  })

  it('POSTs {"text"} as JSON to the webhook URL, subject in bold, &, < and > escaped', async () => {
    receiver.respond(reply(200, 'ok'))
    const result = await send(slack, { url: `${receiver.url}/services/T000/B000/XXXX` })
    expect(result).toMatchObject({ ok: true, log: expect.stringMatching(/answered 200 in \d+ ms: ok$/) })
    const req = receiver.requests.at(-1)!
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/services/T000/B000/XXXX')
    expect(req.headers['content-type']).toBe('application/json')
    const payload = req.json()
    expect(Object.keys(payload)).toEqual(['text'])
    const { subject, body } = messageOf(failed)
    expect(payload.text).toBe(`*${subject}*\n${slackEscape(body.trimEnd())}`)
    expect(payload.text).toContain('process is not running &lt;&amp;&gt; "quoted"')
    expect(payload.text).toContain('http://overseer.test:8080/#/events/42')
    expect(payload.text).not.toMatch(/[<>]/)
  })

  it('escapes markup so that a message cannot ping a channel or forge a link', () => {
    expect(slackEscape('<!channel> & <http://evil|click>')).toBe('&lt;!channel&gt; &amp; &lt;http://evil|click&gt;')
    expect(slackText('a < b', 'x & y\n')).toBe('*a &lt; b*\nx &amp; y')
    expect(slackText('', 'only body')).toBe('only body')
    const long = slackText('s', 'line\n'.repeat(20_000))
    expect(long.length).toBeLessThanOrEqual(39_000)
    expect(long.endsWith('line…')).toBe(true)
  })

  it("reports Slack's own error words with the status", async () => {
    receiver.respond(reply(404, 'no_service'))
    expect(await send(slack, { url: receiver.url })).toMatchObject({
      ok: false,
      error: `127.0.0.1:${receiver.port} answered 404: no_service`
    })
    receiver.respond(reply(400, 'invalid_payload'))
    expect(await send(slack, { url: receiver.url })).toMatchObject({
      ok: false,
      error: `127.0.0.1:${receiver.port} answered 400: invalid_payload`
    })
    receiver.respond(reply(429, 'rate_limited', { 'Retry-After': '30' }))
    expect(await send(slack, { url: receiver.url })).toMatchObject({
      ok: false,
      error: `127.0.0.1:${receiver.port} answered 429: rate_limited (retry after 30 s)`
    })
  })

  it('serves Mattermost (JSON errors) the same way', async () => {
    receiver.respond(
      reply(400, { id: 'web.incoming_webhook.parse.app_error', message: 'Unable to parse incoming data.', status_code: 400 })
    )
    expect(await send(slack, { url: `${receiver.url}/hooks/xyz` })).toMatchObject({
      ok: false,
      error: `127.0.0.1:${receiver.port} answered 400: Unable to parse incoming data.`
    })
  })

  it('keeps the URL, a credential, out of error texts and logs', async () => {
    receiver.respond(reply(403, 'action_prohibited'))
    const result = await send(slack, { url: `${receiver.url}/services/T000/B000/SECRETPART` })
    expect(JSON.stringify(result)).not.toContain('SECRETPART')
    expect(slack.secretFields).toEqual(['url'])
  })

  it('refuses a missing or bad URL', () => {
    expect(refusal(slack, {})).toEqual({ path: 'url', message: 'url is required' })
    expect(refusal(slack, { url: '' })).toEqual({ path: 'url', message: 'url is required' })
    expect(refusal(slack, { url: 'hooks.slack.com/services/x' })).toEqual({
      path: 'url',
      message: 'url must be an http:// or https:// URL'
    })
  })
})

httpFailureCases(slack, (base) => ({ url: `${base}/services/T/B/X` }))
