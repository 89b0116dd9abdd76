// A send bounded in time, as channels/test uses it.
import { describe, expect, it } from 'vitest'
import { sendWithin } from '../../../src/server/alerting/send-within'

describe('sendWithin', () => {
  it('answers what the channel answers', async () => {
    expect(await sendWithin(1000, async () => ({ ok: true, log: 'sent' }))).toEqual({ ok: true, log: 'sent' })
    expect(await sendWithin(1000, async () => ({ ok: false, error: '401 Unauthorized' }))).toEqual({ ok: false, error: '401 Unauthorized' })
  })

  it('turns a throw into the error text', async () => {
    expect(
      await sendWithin(1000, async () => {
        throw new Error('socket hang up')
      })
    ).toEqual({ ok: false, error: 'socket hang up' })
  })

  it('aborts the signal at the limit and answers then, even when the channel ignores it', async () => {
    let signal: AbortSignal | undefined
    const started = Date.now()
    const result = await sendWithin(100, (s) => {
      signal = s
      return new Promise(() => {})
    })
    expect(result).toEqual({ ok: false, error: 'no answer within 0.1 s' })
    expect(signal?.aborted).toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(90)
  })

  it('ends at once with the reason when stopped (the server stopping)', async () => {
    const stop = new AbortController()
    let signal: AbortSignal | undefined
    const sending = sendWithin(
      60_000,
      (s) => {
        signal = s
        return new Promise(() => {})
      },
      stop.signal
    )
    stop.abort(new Error('the server is stopping'))
    expect(await sending).toEqual({ ok: false, error: 'the server is stopping' })
    expect(signal?.aborted).toBe(true)
  })

  it('words a send rejected by its aborted signal as the reason', async () => {
    const result = await sendWithin(
      50,
      (s) => new Promise((_, reject) => s.addEventListener('abort', () => reject(new Error('This operation was aborted'))))
    )
    expect(result).toEqual({ ok: false, error: 'no answer within 0.05 s' })
  })
})
