// Agents the collector refused, per source address, user name and reason (issue 28), for the console
// and /metrics. Kept in this process's memory, never in the database: anyone on the network can be
// refused, and must not be able to make the server write (docs/collector.md#refused-agents). Bounded: at
// most `maxEntries` entries, the one least recently refused dropped first, and names and addresses cut to a
// fixed length. The password tried is never seen here.
import { loginRefusals, refusalReasons, type RefusalReason } from '../../shared/api/refusal-reasons'
import type { RefusedAgent } from '../../shared/api/refused-agents'

export const MAX_REFUSED_AGENTS = 100
/** userNameRule's bound: no real user has a longer name. */
const MAX_NAME = 64
/** An IPv6 address with a zone fits. */
const MAX_ADDRESS = 64

export interface Refusal {
  entry: RefusedAgent
  /** The first refusal of this address, user name and reason since it was last cleared. */
  first: boolean
}

export class RefusedAgents {
  // Map order is the order of the latest refusal: a refusal moves its entry to the end, the first is the oldest.
  private readonly entries = new Map<string, RefusedAgent>()
  private readonly totals = new Map<RefusalReason, number>(refusalReasons.map((r) => [r, 0]))
  private nextId = 1
  private droppedEntries = 0

  constructor(
    private readonly maxEntries = MAX_REFUSED_AGENTS,
    private readonly now: () => number = Date.now
  ) {}

  refused(address: string, uname: string, reason: RefusalReason): Refusal {
    this.totals.set(reason, this.totals.get(reason)! + 1)
    const at = Math.floor(this.now() / 1000)
    const agent = { address: address.slice(0, MAX_ADDRESS), uname: uname.slice(0, MAX_NAME) }
    const key = keyOf(agent.address, agent.uname, reason)
    const known = this.entries.get(key)
    if (known) {
      this.entries.delete(key)
      this.entries.set(key, { ...known, last: at, count: known.count + 1 })
      return { entry: this.entries.get(key)!, first: false }
    }
    if (this.entries.size >= this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value!)
      this.droppedEntries++
    }
    const entry = { id: this.nextId++, ...agent, reason, first: at, last: at, count: 1 }
    this.entries.set(key, entry)
    return { entry, first: true }
  }

  /** A message of this agent was stored: its login refusals are over (a refused message stays: it was lost all the same). */
  succeeded(address: string, uname: string): void {
    if (this.entries.size === 0) return // every stored message passes here
    const a = address.slice(0, MAX_ADDRESS)
    const u = uname.slice(0, MAX_NAME)
    for (const reason of loginRefusals) this.entries.delete(keyOf(a, u, reason))
  }

  /** False when no entry has this id (dismissed already, cleared or dropped). */
  dismiss(id: number): boolean {
    for (const [key, entry] of this.entries) {
      if (entry.id === id) return this.entries.delete(key)
    }
    return false
  }

  /** The latest refusal first. */
  list(): RefusedAgent[] {
    return [...this.entries.values()].reverse()
  }

  get dropped(): number {
    return this.droppedEntries
  }

  /** Refusals since the server started, by reason: every reason, 0 included. */
  totalsByReason(): ReadonlyMap<RefusalReason, number> {
    return this.totals
  }
}

const keyOf = (address: string, uname: string, reason: RefusalReason) => `${reason}\n${address}\n${uname}`
