// The shared HTTP delivery helper and the registry of the HTTP channels.
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { channelType, channelTypes } from '../../../../src/server/alerting/channels'
import { readParams } from '../../../../src/server/http/params'
import {
  errorDetail,
  excerpt,
  joinUrl,
  retryAfter,
  truncate,
  utf8Bytes,
  worstState,
  type HttpAnswer
} from '../../../../src/server/alerting/channels/http'
import { failed, recovered } from '../../../support/http-channel-cases'

const answer = (status: number, text: string, headers: Record<string, string> = {}): HttpAnswer => ({
  status,
  text,
  headers: new Headers(headers),
  ms: 1
})

describe('http channel helper', () => {
  it('cuts text cleanly: within the limit, not inside a character, at a line end when near, with "…"', () => {
    expect(truncate('short', 10)).toBe('short')
    expect(truncate('abcdefghij', 5)).toBe('abcd…')
    expect(truncate('🔥🔥🔥', 5)).toBe('🔥🔥…')
    expect(truncate('line one\nline two is long', 22)).toBe('line one\nline two is…')
    expect(truncate('aaaaaaaaaaaaaaaaaaa\nb', 21)).toBe('aaaaaaaaaaaaaaaaaaa\nb')
    expect(truncate('aaaaaaaaaaaaaaaaaa\nbbbbb', 21)).toBe('aaaaaaaaaaaaaaaaaa…')
    const bytes = truncate('ü'.repeat(100), 11, utf8Bytes)
    expect(bytes).toBe('üüüü…')
    expect(utf8Bytes(bytes)).toBeLessThanOrEqual(11)
  })

  it("finds the service's own words in an error answer", () => {
    expect(errorDetail(answer(404, 'no_service'))).toBe('no_service')
    expect(errorDetail(answer(404, '{"message": "Unknown Webhook", "code": 10015}'))).toBe('Unknown Webhook (code 10015)')
    expect(errorDetail(answer(400, '{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}'))).toBe(
      'Bad Request: chat not found'
    )
    expect(errorDetail(answer(401, '{"error":"Unauthorized","errorCode":401,"errorDescription":"no token"}'))).toBe(
      'Unauthorized: no token'
    )
    expect(errorDetail(answer(500, '{"unexpected": true}'))).toBe('{"unexpected": true}')
    expect(errorDetail(answer(502, ''))).toBe('')
    expect(excerpt(`  a\n\n  b  ${'c'.repeat(500)}`)).toMatch(/^a b c+…$/)
    expect(excerpt('x'.repeat(500)).length).toBe(200)
  })

  it("reads how long to wait from a JSON retry_after, Telegram's parameters or a Retry-After header", () => {
    expect(retryAfter(answer(429, '{"retry_after": 0.456}'))).toBe(0.5)
    expect(retryAfter(answer(429, '{"parameters": {"retry_after": 12}}'))).toBe(12)
    expect(retryAfter(answer(429, 'slow down', { 'Retry-After': '30' }))).toBe(30)
    expect(retryAfter(answer(429, 'slow down', { 'Retry-After': 'Wed, 21 Oct 2015 07:28:00 GMT' }))).toBeUndefined()
    expect(retryAfter(answer(500, 'x'))).toBeUndefined()
  })

  it('joins paths onto a base URL, keeping its prefix', () => {
    expect(joinUrl('https://ntfy.sh', '').href).toBe('https://ntfy.sh/')
    expect(joinUrl('https://ntfy.sh/', '').href).toBe('https://ntfy.sh/')
    expect(joinUrl('https://example.com/ntfy/', '').href).toBe('https://example.com/ntfy/')
    expect(joinUrl('https://gotify.lan/push//', 'message').href).toBe('https://gotify.lan/push/message')
    expect(joinUrl('https://api.telegram.org', 'bot1:x', 'sendMessage').href).toBe('https://api.telegram.org/bot1:x/sendMessage')
  })

  it('names the state that matters most in a grouped notification', () => {
    expect(worstState(failed)).toBe('failed')
    expect(worstState(recovered)).toBe('succeeded')
    expect(worstState({ ...failed, alerts: [...recovered.alerts, { ...failed.alerts[0], state: 'changed' }] })).toBe('changed')
    expect(worstState({ ...failed, alerts: [...recovered.alerts, ...failed.alerts] })).toBe('failed')
  })
})

describe('HTTP channels in the registry', () => {
  it('lists each type once, its settings an object schema whose keys include its secret fields', () => {
    for (const type of ['webhook', 'slack', 'discord', 'ntfy', 'gotify', 'telegram']) {
      const channel = channelType(type)
      expect(channel?.type).toBe(type)
      expect(channelTypes.filter((c) => c.type === type)).toHaveLength(1)
      expect(channel!.settings).toBeInstanceOf(z.ZodObject)
      const keys = Object.keys((channel!.settings as z.ZodObject).shape)
      for (const secret of channel!.secretFields) expect(keys).toContain(secret)
    }
  })
})

describe('HTTP channel settings read as API arguments (M/Monit conventions: strings, repeatable arguments)', () => {
  const read = (type: string, args: [string, string][]) => {
    const raw = new Map<string, string[]>()
    for (const [k, v] of args) raw.set(k, [...(raw.get(k) ?? []), v])
    return readParams((channelType(type)!.settings as z.ZodObject).shape, raw)
  }

  it('takes form values as given in the docs/alerting.md examples, repeatable headers collected', () => {
    expect(
      read('webhook', [
        ['url', 'https://hooks.example.com/overseer'],
        ['header', 'Authorization: Bearer abc'],
        ['header', 'X-Team: ops'],
        ['secret', 's3cret']
      ])
    ).toEqual({ url: 'https://hooks.example.com/overseer', header: ['Authorization: Bearer abc', 'X-Team: ops'], secret: 's3cret' })
    expect(
      read('ntfy', [
        ['url', 'https://ntfy.sh'],
        ['topic', 'overseer-alerts'],
        ['priority', 'high']
      ])
    ).toEqual({ url: 'https://ntfy.sh', topic: 'overseer-alerts', priority: 4, token: undefined })
    expect(
      read('telegram', [
        ['token', '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'],
        ['chatid', '-1001234567890']
      ])
    ).toMatchObject({ apiurl: 'https://api.telegram.org', chatid: '-1001234567890' })
    expect(
      read('gotify', [
        ['url', 'https://gotify.example.com'],
        ['token', 'AzyoeNS.D4iJLVa']
      ])
    ).toMatchObject({ token: 'AzyoeNS.D4iJLVa' })
  })

  it('names the bad argument in the 400 error', () => {
    expect(() => read('ntfy', [['url', 'https://ntfy.sh']])).toThrow("invalid argument 'topic': is required")
    expect(() =>
      read('ntfy', [
        ['topic', 'x'],
        ['priority', '7']
      ])
    ).toThrow("invalid argument 'priority': priority must be 1–5 or min, low, default, high, urgent")
    expect(() =>
      read('webhook', [
        ['url', 'https://x.test'],
        ['header', 'X-A: 1'],
        ['header', 'broken']
      ])
    ).toThrow(`invalid argument 'header': header "broken" is not of the form "Name: value"`)
    expect(() => read('slack', [])).toThrow("invalid argument 'url': is required")
  })
})
