// Session lifecycle: ids only the server issued, an idle expiry (1800 s unless an administrator set
// another), a CSRF token per session, and bounds that no caller can turn into a lock-out: anonymous
// sessions only ever evict other anonymous ones, a login only its own user's oldest sessions, and never
// the session being made. The id is kept at login for API clients, which keep the cookie of their first
// GET /index.csp (compat AUTH-3); browsers get a new one (session fixation). A session that deletes its
// own user outlives it, unrefreshed, until its logout or expiry (compat CLI-7).
import { randomBytes } from 'node:crypto'
import type { SessionRepository, SessionRow } from '../store/sessions'

export const SESSION_COOKIE = 'zsessionid'
export const DEFAULT_SESSION_TIMEOUT_SEC = 1800
/** M/Monit's maxActiveSessions (compat AUTH-8), here for the sessions nobody logged in to. */
export const MAX_ANONYMOUS_SESSIONS = 1024
/** A user's logins beyond this end their own least recently used ones. */
export const MAX_SESSIONS_PER_USER = 128
/** last_access is written at most this often, so reads stay reads. */
const TOUCH_EVERY_SEC = 30

export interface Session {
  id: string
  userId: number | null
  csrfToken: string
  csrfProtection: boolean
  attributes: Record<string, string>
  savedUrl: string | null
  /** Set when this session deleted its own user (compat CLI-7): userId is then null. */
  deletedUser?: DeletedUser
}

/** Whose a session was before it deleted its own user. */
export interface DeletedUser {
  id: number
  uname: string
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
    // A deleted user's session is not kept alive by its use: it ends one timeout after the deletion at most.
    if (now - row.last_access >= TOUCH_EVERY_SEC && row.deleted_user_id === null) this.bestEffort(() => this.repo.touched(id, now))
    return toSession(row)
  }

  timeoutSec(): number {
    return this.storedTimeoutSec() ?? DEFAULT_SESSION_TIMEOUT_SEC
  }

  /** A new anonymous session. */
  create(): Session {
    const row = this.newRow(null, 1)
    this.repo.create(row)
    this.repo.evictAnonymousBeyond(MAX_ANONYMOUS_SESSIONS, row.id)
    return toSession(row)
  }

  /**
   * Logs the session in; `rotate`: under a new id (the old one ends), so that an id planted in a browser
   * before the login never becomes the victim's logged-in session. Returns the logged-in session.
   */
  logIn(session: Session, userId: number, csrfProtection: boolean, rotate: boolean): Session {
    const protection = csrfProtection ? 1 : 0
    let loggedIn: Session
    if (rotate) {
      const row = this.newRow(userId, protection)
      this.repo.create(row)
      this.repo.delete(session.id)
      loggedIn = toSession(row)
    } else {
      const changes = { user_id: userId, csrf_protection: protection, saved_url: null, deleted_user_id: null, deleted_uname: null }
      this.repo.update(session.id, { ...changes, last_access: this.now() })
      loggedIn = { ...session, userId, csrfProtection, savedUrl: null, deletedUser: undefined }
    }
    this.repo.evictOfUserBeyond(userId, MAX_SESSIONS_PER_USER, loggedIn.id)
    return loggedIn
  }

  /** Ends the sessions idle past the timeout (the sweep job); how many ended. */
  sweepExpired(nowSec = this.now()): number {
    return this.repo.deleteIdleSince(nowSec - this.timeoutSec())
  }

  remember(id: string, savedUrl: string): void {
    this.repo.update(id, { saved_url: savedUrl })
  }

  setAttributes(id: string, attributes: Record<string, string>): void {
    this.repo.update(id, { attributes: JSON.stringify(attributes) })
  }

  /** A new password ends the user's other logins: whoever knew the old one is logged out. */
  endOtherSessionsOf(userId: number, current: Session | undefined): void {
    this.repo.deleteOfUser(userId, current?.userId === userId ? current.id : undefined)
  }

  /**
   * Keeps the session alive past the deletion of its own user (compat CLI-7), which would end it with the
   * user's other sessions: a script that deleted the account it logged in with goes on to finish its work.
   */
  outliveUser(session: Session, user: DeletedUser): void {
    this.repo.update(session.id, { user_id: null, deleted_user_id: user.id, deleted_uname: user.uname, last_access: this.now() })
  }

  invalidate(id: string): void {
    this.repo.delete(id)
  }

  private newRow(userId: number | null, csrfProtection: number): SessionRow {
    const now = this.now()
    return {
      id: randomBytes(16).toString('hex'),
      user_id: userId,
      csrf_token: randomBytes(16).toString('hex'),
      csrf_protection: csrfProtection,
      attributes: '{}',
      saved_url: null,
      created_at: now,
      last_access: now,
      deleted_user_id: null,
      deleted_uname: null
    }
  }
}

function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    userId: row.user_id,
    csrfToken: row.csrf_token,
    csrfProtection: row.csrf_protection === 1,
    attributes: JSON.parse(row.attributes) as Record<string, string>,
    savedUrl: row.saved_url,
    ...(row.deleted_user_id !== null && { deletedUser: { id: row.deleted_user_id, uname: row.deleted_uname ?? '' } })
  }
}
