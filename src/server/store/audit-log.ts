// The audit log (migration 015): one row per change or login, written in the transaction of the change it
// records (`recording`), listed newest first for administrators and pruned after the retention chosen.
import type { QueryBuilder, SqlRunner } from './sql'

/** Who acted and from where; userId null for a failed login or a user unknown. */
export interface AuditActor {
  userId: number | null
  uname: string
  address: string
}

/** What was done: a stable code (`user.create`), what it acted on (`user 5 alice`), and a secret-free detail. */
export interface AuditAction {
  action: string
  target: string
  detail?: string
}

export interface AuditRecord extends AuditActor, Required<AuditAction> {
  id: number
  /** Unix seconds */
  at: number
}

export interface AuditFilter {
  /** Unix seconds, inclusive */
  from?: number
  to?: number
  uname?: string
  action?: string
  /** Contained in the target or the detail, ignoring case */
  text?: string
}

export class AuditLogRepository {
  constructor(
    private readonly q: QueryBuilder,
    private readonly sql: SqlRunner,
    private readonly now: () => number = Date.now
  ) {}

  /** Adds a row (inside the caller's transaction, when it has one). */
  record(actor: AuditActor, what: AuditAction): void {
    this.sql.run(
      this.q.insertInto('audit_log').values({
        at: Math.floor(this.now() / 1000),
        user_id: actor.userId,
        uname: actor.uname,
        address: actor.address,
        action: what.action,
        target: what.target,
        detail: what.detail ?? ''
      })
    )
  }

  /** Runs `change` and records it in one transaction: both are stored, or neither. */
  recording<T>(actor: AuditActor, what: AuditAction | ((result: T) => AuditAction), change: () => T): T {
    return this.sql.transaction(() => {
      const result = change()
      this.record(actor, typeof what === 'function' ? what(result) : what)
      return result
    })
  }

  /** Rows matching `filter`, newest first, and how many match in all. */
  list(filter: AuditFilter, offset: number, limit: number): { records: AuditRecord[]; total: number } {
    const d = this.sql.dialect
    let query = this.q.selectFrom('audit_log')
    if (filter.from !== undefined) query = query.where('at', '>=', filter.from)
    if (filter.to !== undefined) query = query.where('at', '<=', filter.to)
    if (filter.uname) query = query.where(d.equalsIgnoringCase('uname', filter.uname))
    if (filter.action) query = query.where('action', '=', filter.action)
    const text = filter.text
    if (text) query = query.where((eb) => eb.or([d.contains('target', text), d.contains('detail', text)]))
    const total = Number(this.sql.first(query.select((eb) => eb.fn.countAll<number>().as('n')))!.n)
    const records = this.sql.all(
      query
        .select(['id', 'at', 'user_id as userId', 'uname', 'address', 'action', 'target', 'detail'])
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit)
    )
    return { records, total }
  }

  /** Deletes up to `limit` of the oldest rows dated before `before` (Unix seconds); returns how many. */
  pruneBefore(before: number, limit: number): number {
    return this.sql.run(
      this.q
        .deleteFrom('audit_log')
        .where('id', 'in', (eb) => eb.selectFrom('audit_log').select('id').where('at', '<', before).orderBy('at').limit(limit))
    ).changes
  }
}
