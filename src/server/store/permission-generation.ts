// A counter the writes that can change someone's permissions bump (users, roles, host groups, deleted
// hosts). Cached principals and verified Basic credentials (auth/) compare against it.
import type { SqlRunner } from './sql'

export interface PermissionGeneration {
  readonly value: number
  bump(): void
}

/**
 * One process owns a SQLite file: the counter lives in its memory. Bumped even when the write's
 * transaction then rolls back: a cache recomputed once too often costs little.
 */
export class ProcessPermissionGeneration implements PermissionGeneration {
  private current = 0

  get value(): number {
    return this.current
  }

  bump(): void {
    this.current++
  }
}

const KEY = 'permission_generation'

/**
 * Several instances share a PostgreSQL database: the counter is a row, so a change made through one
 * instance invalidates the caches of all. Bumped in the write's transaction: it commits with the change.
 */
export class StoredPermissionGeneration implements PermissionGeneration {
  constructor(private readonly sql: SqlRunner) {}

  get value(): number {
    return Number(this.sql.rows<{ value: string }>('SELECT value FROM setting WHERE key = ?', [KEY])[0]?.value ?? 0)
  }

  bump(): void {
    this.sql.execute(
      `INSERT INTO setting (key, value) VALUES (?, '1')
       ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(setting.value AS BIGINT) + 1 AS TEXT)`,
      [KEY]
    )
  }
}
