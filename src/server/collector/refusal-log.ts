// The log's side of refused agents (issue 28): a warning the first time an address and user name is
// refused for a reason, again at its 10th, 100th, 1,000th … refusal (an agent retries every cycle), and
// never more than MAX_PER_MINUTE lines a minute in all, so that a neighbour trying names cannot flood
// the log; what was held back is counted in the next line.
import { refusalCause, refusalLabel } from '../../shared/api/refusal-reasons'
import type { Logger } from '../log'
import type { Refusal } from './refused-agents'

export const MAX_PER_MINUTE = 20

export class RefusalLog {
  private minute = -1
  private written = 0
  private heldBack = 0

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = Date.now
  ) {}

  refused({ entry, first }: Refusal, detail?: string): void {
    if (!first && !isPowerOfTen(entry.count)) return
    const minute = Math.floor(this.now() / 60_000)
    if (minute !== this.minute) {
      this.minute = minute
      this.written = 0
    }
    if (this.written >= MAX_PER_MINUTE) {
      this.heldBack++
      return
    }
    this.written++
    const who = entry.uname === '' ? 'an agent' : `user ${JSON.stringify(entry.uname)}`
    const times = entry.count === 1 ? '' : ` (${entry.count} times since ${new Date(entry.first * 1000).toISOString()})`
    const more = this.heldBack === 0 ? '' : `; ${this.heldBack} more refusal warnings were held back`
    this.heldBack = 0
    // A message's own fault is in its detail; a login's, in what to do about it.
    const why = `${refusalLabel[entry.reason].toLowerCase()}: ${detail ?? refusalCause[entry.reason]}`
    this.log.warn(`collector: refused ${who} from ${entry.address}${times}: ${why}${more}`)
  }
}

const isPowerOfTen = (n: number) => /^10+$/.test(String(n))
