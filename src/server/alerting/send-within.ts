// A channel's send bounded in time: the channel gets a signal to give up, and the caller its answer
// when it is due even from a channel that ignores the signal. What a send throws is its error text.
import type { SendResult } from './channel'

export async function sendWithin(ms: number, send: (signal: AbortSignal) => Promise<SendResult>): Promise<SendResult> {
  const signal = AbortSignal.timeout(ms)
  const timedOut = new Promise<SendResult>((resolve) => {
    signal.addEventListener('abort', () => resolve({ ok: false, error: `no answer within ${ms / 1000} s` }), { once: true })
  })
  try {
    return await Promise.race([send(signal), timedOut])
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) }
  }
}
