// Alert channels (migration 006): where notifications go. Settings are stored as given, their secret
// fields already sealed by the caller (alerting/channel-settings.ts): this layer never sees a secret.
import type { Selectable } from 'kysely'
import type { AlertChannelTable } from './schema'
import type { QueryBuilder, SqlRunner } from './sql'

export type AlertChannelRow = Selectable<AlertChannelTable>

/** What create and update write. */
export interface AlertChannelValues {
  name: string
  type: string
  enabled: boolean
  settings: string
  subject_template: string | null
  body_template: string | null
}

export class AlertChannelRepository {
  constructor(
    private readonly q: QueryBuilder,
    private readonly sql: SqlRunner
  ) {}

  list(): AlertChannelRow[] {
    return this.sql.all(this.q.selectFrom('alert_channel').selectAll().orderBy('name'))
  }

  /** Whether an enabled channel of this type exists. */
  anyEnabled(type: string): boolean {
    return (
      this.sql.first(this.q.selectFrom('alert_channel').select('id').where('type', '=', type).where('enabled', '=', 1).limit(1)) !==
      undefined
    )
  }

  find(id: number): AlertChannelRow | undefined {
    return this.sql.first(this.q.selectFrom('alert_channel').selectAll().where('id', '=', id))
  }

  idOfName(name: string): number | undefined {
    return this.sql.first(this.q.selectFrom('alert_channel').select('id').where('name', '=', name))?.id
  }

  create(values: AlertChannelValues, now: number): number {
    return this.sql.first(
      this.q
        .insertInto('alert_channel')
        .values({ ...values, enabled: values.enabled ? 1 : 0, created_at: now })
        .returning('id')
    )!.id
  }

  update(id: number, values: AlertChannelValues): void {
    this.sql.run(
      this.q
        .updateTable('alert_channel')
        .set({ ...values, enabled: values.enabled ? 1 : 0 })
        .where('id', '=', id)
    )
  }

  /** False when there is no such channel. Its rules lose it; its pending notifications go (schema cascade). */
  delete(id: number): boolean {
    return this.sql.run(this.q.deleteFrom('alert_channel').where('id', '=', id)).changes === 1
  }

  /** The ids among `ids` that name no channel. */
  unknown(ids: readonly number[]): number[] {
    if (ids.length === 0) return []
    const known = new Set(
      this.sql.all(this.q.selectFrom('alert_channel').select('id').where('id', 'in', this.sql.dialect.idList(ids))).map((c) => c.id)
    )
    return ids.filter((id) => !known.has(id))
  }
}
