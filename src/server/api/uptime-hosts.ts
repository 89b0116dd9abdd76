// The hosts reports/uptime/list shows, kept between requests: each request reads every host's count of
// changes (two narrow columns) and then only the rows of the hosts whose count moved. Reading all 10,000
// rows again, ordered by name, took 60 ms on PostgreSQL, its host table being as wide as the collector
// keeps it (issue 28). The order is the database's (its collation): read whole again when a host is
// added, renamed or more than a few changed at once.
import type { UptimeHostRow, UptimeRepository } from '../store/uptime'

/** Past this many changed hosts, all are read again (their ids would make a long statement). */
const READ_APART = 500

export class UptimeHosts {
  private byName: UptimeHostRow[] = []
  private readonly byId = new Map<number, UptimeHostRow>()

  constructor(private readonly repo: UptimeRepository) {}

  /** Every host by name, as it is now: a change committed before the call is in it. */
  current(): UptimeHostRow[] {
    const generations = this.repo.hostGenerations()
    const changed: number[] = []
    for (const [id, generation] of generations) if (this.byId.get(id)?.uptime_generation !== generation) changed.push(id)
    if (changed.length > READ_APART || !this.takeChanged(changed)) this.readAll()
    else if (this.byId.size > generations.size) this.forgetAbsent(generations)
    return this.byName
  }

  /** Replaces the changed hosts' rows where they stand; false when one is new or renamed (its place is not known). */
  private takeChanged(ids: number[]): boolean {
    if (ids.length === 0) return true
    const rows = this.repo.hostsWithIds(ids)
    if (rows.some((row) => this.byId.get(row.id)?.hostname !== row.hostname)) return false
    for (const row of rows) this.byId.set(row.id, row)
    this.byName = this.byName.map((host) => this.byId.get(host.id)!)
    return true
  }

  private forgetAbsent(present: Map<number, number>): void {
    for (const id of this.byId.keys()) if (!present.has(id)) this.byId.delete(id)
    this.byName = this.byName.filter((host) => present.has(host.id))
  }

  private readAll(): void {
    this.byName = this.repo.hosts()
    this.byId.clear()
    for (const host of this.byName) this.byId.set(host.id, host)
  }
}
