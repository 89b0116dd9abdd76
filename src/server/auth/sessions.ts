// Session lifecycle: ids only the server issued, an idle expiry (1800 s unless an administrator set
// another), a CSRF token per session, and no id rotation at login (clients keep the cookie of their
// first GET /index.csp, compat AUTH-3).
import { randomBytes } from 'node:crypto'
import type { SessionRepository, SessionRow } from '../store/sessions'

export const SESSION_COOKIE = 'zsessionid'
export const DEFAULT_SESSION_TIMEOUT_SEC = 1800
export const MAX_SESSIONS = 1024
/** last_access is written at most this often, so reads stay reads. */
const TOUCH_EVERY_SEC = 30

export interface Session {
  id: string
  userId: number | null
  csrfToken: string
  csrfProtection: boolean
  attributes: Record<string, string>
  savedUrl: string | null
}

export class SessionService {
  constructor(
    private readonly repo: SessionRepository,
    /** The idle timeout setting, read on every resume so a change applies at once; undefined: the default. */
    private readonly storedTimeoutSec: () => number | undefined = () => undefined,
    private readonly now = () => Math.floor(Date.now() / 1000),
    /**
     * Runs the writes a read can do without (the last-access stamp, removing an expired session);
     * undefined when storage refused one (a full disk: metrics/storage-health.ts), so the read is still answered.
     */
    private readonly bestEffort: <T>(write: () => T) => T | undefined = (write) => write()
  ) {}

  /** The live session with this id, refreshed; undefined when unknown or expired. */
  resume(id: string | undefined): Session | undefined {
    if (!id) return undefined
    const row = this.repo.find(id)
    if (!row) return undefined
    const now = this.now()
    if (now - row.last_access > this.timeoutSec()) {
      this.bestEffort(() => this.repo.delete(id))
      return undefined
    }
    if (now - row.last_access >= TOUCH_EVERY_SEC) this.bestEffort(() => this.repo.touched(id, now))
    return toSession(row)
  }

  timeoutSec(): number {
    return this.storedTimeoutSec() ?? DEFAULT_SESSION_TIMEOUT_SEC
  }

  create(savedUrl: string | null = null): Session {
    const now = this.now()
    const row: SessionRow = {
      id: randomBytes(16).toString('hex'),
      user_id: null,
      csrf_token: randomBytes(16).toString('hex'),
      csrf_protection: 1,
      attributes: '{}',
      saved_url: savedUrl,
      created_at: now,
      last_access: now
    }
    this.repo.create(row)
    this.repo.evictBeyond(MAX_SESSIONS)
    return toSession(row)
  }

  logIn(id: string, userId: number, csrfProtection: boolean): void {
    this.repo.update(id, { user_id: userId, csrf_protection: csrfProtection ? 1 : 0, saved_url: null, last_access: this.now() })
  }

  remember(id: string, savedUrl: string): void {
    this.repo.update(id, { saved_url: savedUrl })
  }

  setAttributes(id: string, attributes: Record<string, string>): void {
    this.repo.update(id, { attributes: JSON.stringify(attributes) })
  }

  /** A new password ends the user's other logins: whoever knew the old one is logged out. */
  endOtherSessionsOf(userId: number, current: Session): void {
    this.repo.deleteOfUser(userId, current.userId === userId ? current.id : undefined)
  }

  invalidate(id: string): void {
    this.repo.delete(id)
  }
}

function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    userId: row.user_id,
    csrfToken: row.csrf_token,
    csrfProtection: row.csrf_protection === 1,
    attributes: JSON.parse(row.attributes) as Record<string, string>,
    savedUrl: row.saved_url
  }
}
