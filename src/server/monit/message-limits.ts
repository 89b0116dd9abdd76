// How much one collector message may hold. Parsing and storing cost grows with the services and
// statistics a message carries, and one ingest thread stores every agent's messages: without a bound,
// a single message of 100,000 services kept it busy for seconds while other agents' heartbeats waited.
// Real agents send far less: about 11 services in 4–8 KB (agent protocol §3), a few hundred services
// on a big host, some 25–35 statistics per process service.

export interface MessageLimits {
  /** Most `<service>` elements in `<services>`; also the most service-group memberships, all groups together. */
  maxServices: number
  /** Most statistics over all services of a message. */
  maxStatistics: number
}

/** About 7× a big host's services, and 50,000 statistics (≈ 300 process services carry 10,000). */
export const defaultMessageLimits: MessageLimits = { maxServices: 2000, maxStatistics: 50_000 }

/**
 * Most host groups one message may declare (5.34+ `<hostgroups>`); the rest are left out, not refused, so
 * that the agent's status still arrives. Each declared group that does not exist is created: without a
 * bound, one message of a million names would create a million groups. Real control files name a few.
 */
export const MAX_HOST_GROUPS = 32

/** The message holds more than a limit allows: answered 413, nothing of it is stored. */
export class MessageTooLarge extends Error {
  override name = 'MessageTooLarge'
}

/**
 * Counts what a message holds while it is parsed and throws as soon as a limit is passed, so that
 * an oversized message costs only the part read up to its limit.
 */
export class MessageBudget {
  private services = 0
  private memberships = 0
  private statistics = 0

  constructor(private readonly limits: MessageLimits) {}

  service(): void {
    if (++this.services > this.limits.maxServices) throw new MessageTooLarge(`more than ${this.limits.maxServices} services in one message`)
  }

  groupMember(): void {
    if (++this.memberships > this.limits.maxServices) {
      throw new MessageTooLarge(`more than ${this.limits.maxServices} service-group members in one message`)
    }
  }

  statistic(): void {
    if (++this.statistics > this.limits.maxStatistics) {
      throw new MessageTooLarge(`more than ${this.limits.maxStatistics} statistics in one message`)
    }
  }
}

/**
 * The longest text of each kind a message may store; longer text is cut (with "…" for free text), not
 * refused, so that an agent's status still arrives. Names match what the console and M/Monit show (255);
 * Monit itself keeps a program's output to 512 bytes unless `set limits` raises it. Without these, the
 * collector account could store megabytes of text per event, and fill the disk.
 */
export const TEXT_LIMITS = { name: 255, message: 8 * 1024, output: 16 * 1024, field: 1024 } as const

/** `text` cut to `max` characters; free text is marked as cut. */
export function clipped(text: string, max: number, mark = false): string {
  if (text.length <= max) return text
  return mark ? `${text.slice(0, max - 1)}…` : text.slice(0, max)
}
