// What every HTTP channel must do when the other side fails, run against each channel module:
// connection refused, a receiver that never answers (the AbortSignal ends it, "timed out", in time),
// one that stops half-way through its answer, a redirect, and a signal already aborted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AlertNotification } from '../../src/shared/api/alerts'
import type { ChannelType, RenderedMessage, SendResult } from '../../src/server/alerting/channel'
import { renderMessage } from '../../src/server/alerting/templates'
import { hang, hangAfterHeaders, refusedUrl, reply, startReceiver, type Receiver } from './http-receiver'

export const failed: AlertNotification = {
  id: 'ntf-7f3a9c-12',
  summary: 'mysqld failed on db-1',
  link: 'http://overseer.test:8080/#/events/42',
  alerts: [
    {
      hostid: 3,
      host: 'db-1',
      serviceid: 17,
      service: 'mysqld',
      servicetype: 3,
      event: 'Nonexist',
      state: 'failed',
      message: 'process is not running <&> "quoted"',
      date: 1_800_000_000,
      link: 'http://overseer.test:8080/#/events/42'
    }
  ]
}

export const recovered: AlertNotification = {
  ...failed,
  id: 'ntf-7f3a9c-13',
  summary: 'mysqld succeeded on db-1',
  alerts: [{ ...failed.alerts[0], state: 'succeeded', message: 'process is running with pid 4242' }]
}

export const messageOf = (n: AlertNotification): RenderedMessage => renderMessage({ subject: null, body: null }, n)

export const withSignal = (ms = 5_000) => ({ signal: AbortSignal.timeout(ms) })

export async function send<S>(channel: ChannelType<S>, input: Record<string, unknown>, n = failed, ms = 5_000): Promise<SendResult> {
  const settings = channel.settings.parse(input)
  return channel.send(settings, n, messageOf(n), withSignal(ms))
}

/** The first issue's message for settings the schema must refuse. */
export function refusal(channel: ChannelType<unknown>, input: Record<string, unknown>): { path: string; message: string } {
  const parsed = channel.settings.safeParse(input)
  if (parsed.success) throw new Error(`settings accepted: ${JSON.stringify(parsed.data)}`)
  const issue = parsed.error.issues[0]
  return { path: issue.path.join('.'), message: issue.message }
}

/**
 * The failure modes shared by every HTTP channel. `settingsFor(base)` gives settings that send to the
 * receiver at `base` (http://127.0.0.1:<port>).
 */
export function httpFailureCases<S>(channel: ChannelType<S>, settingsFor: (base: string) => Record<string, unknown>): void {
  describe(`${channel.type}: when the other side fails`, () => {
    let receiver: Receiver
    beforeAll(async () => {
      receiver = await startReceiver()
    })
    afterAll(async () => {
      await receiver.close()
    })

    it('reports a refused connection with the address', async () => {
      const base = await refusedUrl()
      const result = await send(channel, settingsFor(base))
      expect(result).toMatchObject({ ok: false, error: `connection refused by ${base.slice('http://'.length)}` })
    })

    it('gives up with "timed out" when the receiver never answers, once the signal\'s time is up', async () => {
      receiver.respond(hang)
      const started = Date.now()
      const result = await send(channel, settingsFor(receiver.url), failed, 400)
      const took = Date.now() - started
      expect(result.ok).toBe(false)
      expect(!result.ok && result.error).toMatch(
        new RegExp(`^timed out after \\d+\\.\\d s waiting for 127\\.0\\.0\\.1:${receiver.port} to answer$`)
      )
      expect(took).toBeGreaterThanOrEqual(350)
    })

    it('gives up with "timed out" when the answer stops half-way', async () => {
      receiver.respond(hangAfterHeaders)
      const started = Date.now()
      const result = await send(channel, settingsFor(receiver.url), failed, 400)
      expect(!result.ok && result.error).toMatch(/^timed out after/)
      expect(Date.now() - started).toBeGreaterThanOrEqual(350)
    })

    it('says why when the delivery is aborted for another reason, and does not send once aborted', async () => {
      receiver.respond(hang)
      const controller = new AbortController()
      const settings = channel.settings.parse(settingsFor(receiver.url))
      const pending = channel.send(settings, failed, messageOf(failed), { signal: controller.signal })
      setTimeout(() => controller.abort(new Error('server stopping')), 100)
      expect(await pending).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^aborted after \d+\.\d s waiting for 127\.0\.0\.1:\d+: server stopping$/)
      })

      const before = receiver.requests.length
      const already = await channel.send(settings, failed, messageOf(failed), { signal: AbortSignal.abort() })
      expect(already).toMatchObject({ ok: false, error: expect.stringMatching(/^timed out after \d+\.\d s/) })
      expect(receiver.requests.length).toBe(before)
    })

    it('does not follow a redirect (a POST would silently become a GET) and says where it led', async () => {
      receiver.respond(reply(301, '', { Location: 'https://elsewhere.example/new' }))
      const result = await send(channel, settingsFor(receiver.url))
      expect(result).toMatchObject({
        ok: false,
        error: expect.stringMatching(/answered 301: redirected to elsewhere\.example; set the channel's URL to the final address$/)
      })
    })
  })
}
