// A counter the writes that can change someone's permissions bump (users, roles, host groups, deleted
// hosts). Cached principals and verified Basic credentials (auth/) compare against it. Bumped even when
// the write's transaction then rolls back: a cache recomputed once too often costs little.
export class PermissionGeneration {
  private current = 0

  get value(): number {
    return this.current
  }

  bump(): void {
    this.current++
  }
}
