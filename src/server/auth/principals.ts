// A user's effective permissions, cached until any user, role, group or host change.
import { principalOf, type Principal } from '../domain/permissions'
import type { UserRepository } from '../store/users'
import type { Session } from './sessions'

export class Principals {
  private readonly cache = new Map<number, { principal: Principal; generation: number }>()

  constructor(private readonly users: UserRepository) {}

  /**
   * The session's caller; undefined when anonymous or its user no longer exists. A session that deleted its
   * own user (compat CLI-7) goes on as the administrator it was: only administrators delete users.
   */
  ofSession(session: Session): Principal | undefined {
    if (session.userId !== null) return this.of(session.userId)
    const deleted = session.deletedUser
    return deleted && principalOf(deleted, [{ admin: true, active: true, rows: [] }])
  }

  /** Undefined when the user no longer exists. */
  of(userId: number): Principal | undefined {
    // Read once, before the grants: a change committed meanwhile (another instance) then misses this entry.
    const generation = this.users.generation
    const hit = this.cache.get(userId)
    if (hit && hit.generation === generation) return hit.principal
    const uname = this.users.nameOf(userId)
    if (uname === undefined) {
      this.cache.delete(userId)
      return undefined
    }
    const principal = principalOf({ id: userId, uname }, this.users.grantsOf(userId))
    if (this.cache.size > 10_000) this.cache.clear()
    this.cache.set(userId, { principal, generation })
    return principal
  }
}
