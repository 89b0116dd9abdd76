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

/** How long a read of the stored counter is trusted: a permission change made through another instance reaches this one within it. */
export const GENERATION_READ_AGAIN_MS = 1000

/**
 * Several instances share a PostgreSQL database: the counter is a row, so a change made through one
 * instance invalidates the caches of all. Bumped in the write's transaction: it commits with the change.
 * Read at most once a second (every collector request and API call asks for it, and each read would be a
 * round trip); this instance's own bumps are seen at once.
 */
export class StoredPermissionGeneration implements PermissionGeneration {
  private cached = 0
  private readAt = -Infinity

  constructor(
    private readonly sql: SqlRunner,
    private readonly now: () => number = () => performance.now()
  ) {}

  get value(): number {
    const now = this.now()
    if (now - this.readAt >= GENERATION_READ_AGAIN_MS) {
      this.cached = Number(this.sql.rows<{ value: string }>('SELECT value FROM setting WHERE key = ?', [KEY])[0]?.value ?? 0)
      this.readAt = now
    }
    return this.cached
  }

  bump(): void {
    this.sql.execute(
      `INSERT INTO setting (key, value) VALUES (?, '1')
       ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(setting.value AS BIGINT) + 1 AS TEXT)`,
      [KEY]
    )
    this.readAt = -Infinity
  }
}
