// M/Monit's users. Their passwords are unsalted MD5 digests: kept as a legacy hash, verified once at the
// user's next login and replaced by our own then (auth/passwords.ts); flagged unsafe until that login.
// Roles: M/Monit's `admin` is our Administrator; its `monit` role is both a console user and what Monit
// agents post with (`set mmonit http://monit:monit@…`), so it becomes our User and Collector roles and
// the agents' `set mmonit` lines keep working once pointed here. An account of the same name already in
// Overseer is kept as it is.
import { createHash } from 'node:crypto'
import { importedPassword } from '../../auth/passwords'
import { md5Hash } from '../../auth/password-hash'
import { BUILTIN_ROLE } from '../../../shared/api/roles'
import { DEFAULT_USER_ROLE } from '../../store/users'
import { forEachPage, textOf } from './pages'
import type { SourceRow } from '../../store/mmonit-source/source'
import type { ImportContext, ImportStep, Skipped } from './step'

const PROFILE = ['fullname', 'title', 'email', 'phone', 'mobile', 'imname', 'imtype', 'image'] as const

/** M/Monit's shipped accounts and their passwords: still set, they are the first a guesser tries. */
const SHIPPED_PASSWORDS: Record<string, string> = { admin: 'swordfish', monit: 'monit' }

export const usersStep: ImportStep = {
  name: 'users',
  count: (source) => source.count('users'),
  async run(ctx) {
    const roles = await rolesOfUsers(ctx)
    const skipped: Skipped[] = []
    const warnings: string[] = []
    let read = 0
    let imported = 0
    await forEachPage(
      ctx.source,
      { table: 'users', columns: ['uname', 'password', ...PROFILE], key: ['uname'] },
      ctx.options.batchRows,
      (rows) => {
        ctx.target.sql.transaction(() => {
          for (const row of rows) {
            const outcome = importUser(ctx, row, roles.get(textOf(row.uname)) ?? [])
            if (outcome === 'imported') imported++
            else skipped.push({ what: `user ${textOf(row.uname)}`, why: outcome })
            const shipped = SHIPPED_PASSWORDS[textOf(row.uname)]
            if (outcome === 'imported' && shipped !== undefined && textOf(row.password).toLowerCase() === md5(shipped)) {
              warnings.push(`user ${textOf(row.uname)} still has M/Monit's default password (${shipped}): flagged unsafe, change it`)
            }
          }
        })
        read += rows.length
        ctx.progress(read)
      }
    )
    return { imported, skipped, warnings }
  }
}

/** 'imported', or why not. */
function importUser(ctx: ImportContext, row: SourceRow, mmonitRoles: readonly string[]): 'imported' | string {
  const { users } = ctx.target
  const uname = textOf(row.uname)
  const existing = users.credentialsOf(uname)
  if (existing) {
    ctx.ids.users.set(uname, existing.id)
    // Imported by an earlier run and not logged in since: the same account.
    return existing.password_hash === md5Hash(textOf(row.password)) ? 'imported' : 'an Overseer account of that name exists: kept as it is'
  }
  const password = importedPassword(textOf(row.password))
  if (!password) return 'its password is no MD5 digest: create the account again in Overseer'
  const profile = Object.fromEntries(PROFILE.map((field) => [field, textOf(row[field])]))
  ctx.ids.users.set(uname, users.create({ uname, password, ...profile, roleIds: roleIds(ctx, mmonitRoles) }))
  return 'imported'
}

function roleIds(ctx: ImportContext, mmonitRoles: readonly string[]): number[] {
  if (mmonitRoles.includes('admin')) return [BUILTIN_ROLE.Administrator]
  if (!mmonitRoles.includes('monit')) return []
  // The User role may have been deleted; the Collector role is built in.
  return ctx.target.roles.find(DEFAULT_USER_ROLE) ? [BUILTIN_ROLE.Collector, DEFAULT_USER_ROLE] : [BUILTIN_ROLE.Collector]
}

/** Every user's M/Monit roles (`userroles`: a few rows per user). */
async function rolesOfUsers(ctx: ImportContext): Promise<Map<string, string[]>> {
  const roles = new Map<string, string[]>()
  await forEachPage(
    ctx.source,
    { table: 'userroles', columns: ['uname', 'role'], key: ['uname', 'role'] },
    ctx.options.batchRows,
    (rows) => {
      for (const row of rows) roles.set(textOf(row.uname), [...(roles.get(textOf(row.uname)) ?? []), textOf(row.role)])
    }
  )
  return roles
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex')
}
