// A channel's send bounded in time: the channel gets a signal to give up, and the caller its answer
// when it is due even from a channel that ignores the signal. What a send throws is its error text.
// `stop` ends it early too (the delivery job's sends when the server stops), with its reason as the error.
import type { SendResult } from './channel'

export async function sendWithin(ms: number, send: (signal: AbortSignal) => Promise<SendResult>, stop?: AbortSignal): Promise<SendResult> {
  const abort = new AbortController()
  // A timer of our own, not AbortSignal.timeout(): combined with another signal (AbortSignal.any) such a
  // signal was garbage-collected before it fired, and the send hung on.
  const timer = setTimeout(() => abort.abort(new Error(`no answer within ${ms / 1000} s`)), ms)
  const stopped = () => abort.abort(stop!.reason)
  if (stop?.aborted) stopped()
  else stop?.addEventListener('abort', stopped, { once: true })
  const given = new Promise<SendResult>((resolve) => {
    const giveUp = () => resolve({ ok: false, error: errorText(abort.signal.reason) })
    if (abort.signal.aborted) giveUp()
    else abort.signal.addEventListener('abort', giveUp, { once: true })
  })
  try {
    return await Promise.race([send(abort.signal), given])
  } catch (err) {
    // A send that rejects because it was aborted says so in our words, not "This operation was aborted".
    return { ok: false, error: errorText(abort.signal.aborted ? abort.signal.reason : err) }
  } finally {
    clearTimeout(timer)
    stop?.removeEventListener('abort', stopped)
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
