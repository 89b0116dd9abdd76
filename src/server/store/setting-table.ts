// The `setting` key/value table, read and written by the repositories that give its keys meaning
// (server settings, history retention and rollup progress).
import type { QueryBuilder, SqlRunner } from './sql'

export class SettingTable {
  private readonly read
  private readonly write
  private readonly add

  constructor(db: QueryBuilder, sql: SqlRunner) {
    this.read = sql.prepare((p: { key: string }) => db.selectFrom('setting').select('value').where('key', '=', p.key))
    this.add = sql.prepare((p: { key: string; value: string }) =>
      db
        .insertInto('setting')
        .values({ key: p.key, value: p.value })
        .onConflict((oc) => oc.column('key').doNothing())
    )
    this.write = sql.prepare((p: { key: string; value: string }) =>
      db
        .insertInto('setting')
        .values({ key: p.key, value: p.value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: p.value }))
    )
  }

  get(key: string): string | undefined {
    return this.read.get({ key })?.value
  }

  set(key: string, value: string | number): void {
    this.write.run({ key, value: String(value) })
  }

  /**
   * Stores `value` unless the key has one already (another server's, written first); returns the stored
   * value. Only writes when there is none, so that a server whose disk is full still starts.
   */
  setIfAbsent(key: string, value: string): string {
    const stored = this.get(key)
    if (stored !== undefined) return stored
    this.add.run({ key, value })
    return this.get(key)!
  }
}
