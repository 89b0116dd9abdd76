// admin/users/list|get|create|update|delete (spec: User, Admin users; compat GEN-4, GEN-6, USR-1,
// USR-2). api/1 keys users by uname and speaks an admin flag; api/2 keys them by id and speaks role ids.
// The legacy paths are api/1 plus api/2's additive output fields. Where M/Monit hands out a digest of the
// password (MD5, SHA-256) that clients only send back to mean "unchanged", every version gets the
// password's random token instead: no digest of a password leaves the server. An administrator may delete
// their own user and go on with the same session (compat CLI-7); never the last administrator.
import { z } from 'zod'
import { newPassword } from '../auth/passwords'
import { endpoint, type ApiEndpoint, type ApiVersion } from '../http/api'
import { badArgument, HttpError } from '../http/errors'
import { arg } from '../../shared/api/args'
import { BUILTIN_ROLE } from '../../shared/api/roles'
import { fullNameRule, passwordRule, userNameRule } from '../../shared/api/users'
import { DEFAULT_USER_ROLE, type StoredPassword, type UserProfile, type UserRecord } from '../store/users'
import { changeAccess } from './admin-roles'
import { actorOf, detailOf } from './audit'
import type { ApiDeps } from './deps'
import { userDetailAnswer, userListAnswer } from '../../shared/api/users'
import { emptyAnswer } from '../../shared/api/common'
import { timeZoneRule } from '../../shared/time-zone'

const PROFILE_FIELDS = ['fullname', 'title', 'email', 'phone', 'mobile', 'imname', 'imtype', 'image', 'timezone'] as const

const uname = userNameRule
const password = passwordRule
const profile = {
  fullname: fullNameRule,
  title: arg.text(200).optional(),
  email: arg.text(200).optional(),
  phone: arg.text(200).optional(),
  mobile: arg.text(200).optional(),
  imname: arg.text(200).optional(),
  imtype: arg.text(200).optional(),
  image: arg.text(200).optional(),
  timezone: timeZoneRule.optional()
}
const roleIds = z.array(arg.int())
/** get and delete take `id` (api/2) or `uname` (api/1) under every prefix (GEN-6). */
const userKey = { id: arg.int().optional(), uname: arg.text().optional() }
const v1 = ['legacy', 1] as const
const v2 = [2] as const

export function adminUserEndpoints({ store, sessions }: ApiDeps): ApiEndpoint[] {
  const { users, auditLog } = store
  const roles = store.roles
  /** What the audit log says of a user written: its name and roles, whether its password changed (never the password). */
  const userChange = (action: string, id: number, passwordChanged: boolean) => ({
    action,
    target: `user ${id} ${users.find(id)?.uname ?? ''}`,
    detail: detailOf({ roles: users.roleIdsOf(id), passwordChanged })
  })

  const byId = (id: number): UserRecord => {
    const user = users.find(id)
    if (!user) throw new HttpError(404, `no user with id ${id}`)
    return user
  }
  const byName = (name: string): UserRecord => {
    const user = users.findByName(name)
    if (!user) throw new HttpError(404, `no user named '${name}'`)
    return user
  }
  const keyed = (key: { id?: number; uname?: string }, version: ApiVersion): UserRecord => {
    if (key.id !== undefined) return byId(key.id)
    if (key.uname !== undefined) return byName(key.uname)
    throw badArgument(version === 2 ? 'id' : 'uname', `is required`)
  }
  const assertUnameFree = (name: string, ownId?: number) => {
    const holder = users.findByName(name)
    if (holder && holder.id !== ownId) throw new HttpError(409, `a user named '${name}' exists already`)
  }
  const assertRolesExist = (ids: readonly number[]) => {
    const unknown = roles.missingRoles(ids)
    if (unknown.length > 0) throw badArgument('roleid', `no role with id ${unknown[0]}`)
  }
  /** api/1's non-admin users get the User role, while it exists. */
  const defaultRoleIds = (): number[] => (roles.find(DEFAULT_USER_ROLE) ? [DEFAULT_USER_ROLE] : [])
  /** The roles after api/1 set the admin flag: grant the Administrator role, or drop every admin role. */
  const rolesWithAdminFlag = (userId: number, admin: boolean): number[] => {
    const current = users.roleIdsOf(userId)
    if (admin) return users.isAdmin(userId) ? current : [...current, BUILTIN_ROLE.Administrator]
    const kept = current.filter((id) => !roles.find(id)?.admin)
    return kept.length > 0 ? kept : defaultRoleIds()
  }
  const detail = (user: UserRecord, version: ApiVersion) => userDetail(user, version, users.isAdmin(user.id), users.roleIdsOf(user.id))

  return [
    endpoint({
      path: 'admin/users/list',
      summary: 'Every user',
      answer: userListAnswer,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: {},
      handle: ({ version }) => users.list().map((user) => listEntry(user, version))
    }),
    endpoint({
      path: 'admin/users/get',
      summary: 'One user, by id (api/2) or uname (api/1)',
      answer: userDetailAnswer,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: userKey,
      handle: ({ params, version }) => detail(keyed(params, version), version)
    }),
    endpoint({
      path: 'admin/users/create',
      summary: 'Creates a user (api/1: with the admin flag)',
      answer: userDetailAnswer,
      versions: v1,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { uname, password, ...profile, admin: arg.bool().optional() },
      handle: async (ctx) => {
        const { params, version } = ctx
        assertUnameFree(params.uname)
        const password = await newPassword(params.password, params.uname)
        const roleIds = params.admin ? [BUILTIN_ROLE.Administrator] : defaultRoleIds()
        const id = auditLog.recording(
          actorOf(ctx),
          (created: number) => userChange('user.create', created, true),
          () => users.create({ ...profileOf(params), uname: params.uname, password, roleIds })
        )
        return detail(byId(id), version)
      }
    }),
    endpoint({
      path: 'admin/users/create',
      summary: 'Creates a user with its roles',
      answer: userDetailAnswer,
      versions: v2,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { uname, password, ...profile, roleid: roleIds },
      handle: async (ctx) => {
        const { params, version } = ctx
        assertRolesExist(params.roleid)
        assertUnameFree(params.uname)
        const password = await newPassword(params.password, params.uname)
        const id = auditLog.recording(
          actorOf(ctx),
          (created: number) => userChange('user.create', created, true),
          () => users.create({ ...profileOf(params), uname: params.uname, password, roleIds: params.roleid })
        )
        return detail(byId(id), version)
      }
    }),
    endpoint({
      path: 'admin/users/update',
      summary: "Changes a user (api/1: a new password needs oldpassword, the current password's token from get)",
      answer: userDetailAnswer,
      versions: v1,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      // `id`, when given, picks the user, so that api/1 callers can rename too.
      params: { id: arg.int().optional(), uname, password, oldpassword: z.string(), ...profile, admin: arg.bool().optional() },
      handle: async (ctx) => {
        const { params, version, session } = ctx
        const user = params.id === undefined ? byName(params.uname) : byId(params.id)
        assertUnameFree(params.uname, user.id)
        const password = await passwordChange(v1NewPassword(user, params.password, params.oldpassword), params.uname)
        const roleIds = params.admin === undefined ? undefined : rolesWithAdminFlag(user.id, params.admin)
        auditLog.recording(
          actorOf(ctx),
          () => userChange('user.update', user.id, password !== undefined),
          () => changeAccess(store, () => users.update(user.id, { ...profileOf(params), uname: params.uname, password, roleIds }))
        )
        if (password !== undefined) sessions.endOtherSessionsOf(user.id, session)
        return detail(byId(user.id), version)
      }
    }),
    endpoint({
      path: 'admin/users/update',
      summary: "Changes a user and its roles (the password's token from get, sent back as password, keeps it)",
      answer: userDetailAnswer,
      versions: v2,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int(), uname, password, ...profile, roleid: roleIds },
      handle: async (ctx) => {
        const { params, version, session } = ctx
        const user = byId(params.id)
        assertRolesExist(params.roleid)
        assertUnameFree(params.uname, user.id)
        // The token sent back (M/Monit's "existing digest") means "unchanged"; anything else is the new clear-text password.
        const password = await passwordChange(params.password === user.password_token ? undefined : params.password, params.uname)
        auditLog.recording(
          actorOf(ctx),
          () => userChange('user.update', user.id, password !== undefined),
          () =>
            changeAccess(store, () =>
              users.update(user.id, { ...profileOf(params), uname: params.uname, password, roleIds: params.roleid })
            )
        )
        if (password !== undefined) sessions.endOtherSessionsOf(user.id, session)
        return detail(byId(user.id), version)
      }
    }),
    endpoint({
      path: 'admin/users/delete',
      summary: 'Deletes a user, by id (api/2) or uname (api/1)',
      answer: emptyAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: userKey,
      handle: (ctx) => {
        const { session } = ctx
        const user = keyed(ctx.params, ctx.version)
        auditLog.recording(actorOf(ctx), { action: 'user.delete', target: `user ${user.id} ${user.uname}` }, () =>
          changeAccess(store, () => {
            // The caller's own user: its other sessions end with it, this one goes on (compat CLI-7).
            if (session?.userId === user.id) sessions.outliveUser(session, user)
            users.delete(user.id)
          })
        )
        return {}
      }
    })
  ]
}

/**
 * api/1: "a new password is set iff password differs from oldpassword", oldpassword being what get
 * returned for the current password (M/Monit's MD5, our token); it must match, so that a client changes
 * only the password it has read.
 */
function v1NewPassword(user: UserRecord, password: string, oldpassword: string): string | undefined {
  if (password === oldpassword) return undefined
  if (oldpassword !== user.password_token) throw badArgument('oldpassword', 'does not match the current password')
  return password
}

/** The new password to store, or undefined to keep the current one. */
async function passwordChange(password: string | undefined, uname: string): Promise<StoredPassword | undefined> {
  return password === undefined ? undefined : newPassword(password, uname)
}

function profileOf(params: Partial<UserProfile>): Partial<UserProfile> {
  const picked: Partial<UserProfile> = {}
  for (const field of PROFILE_FIELDS) if (params[field] !== undefined) picked[field] = params[field]
  return picked
}

/** USR-1: api/1 fields; api/2 and legacy add id (a string, GEN-4), avatar and unsafepassword. */
function listEntry(user: UserRecord, version: ApiVersion) {
  const fields = {
    uname: user.uname,
    fullname: user.fullname,
    image: user.image,
    title: user.title,
    email: user.email,
    mobile: user.mobile,
    imname: user.imname,
    imtype: user.imtype
  }
  if (version === 1) return fields
  return { id: String(user.id), ...fields, avatar: user.image, unsafepassword: user.password_unsafe }
}

/** USR-2: every field; the password is the token update compares against (in every version). */
function userDetail(user: UserRecord, version: ApiVersion, admin: boolean, roleIds: number[]) {
  const fields = {
    uname: user.uname,
    fullname: user.fullname,
    image: user.image,
    title: user.title,
    email: user.email,
    phone: user.phone,
    mobile: user.mobile,
    imname: user.imname,
    imtype: user.imtype,
    admin
  }
  const password = user.password_token
  if (version === 1) return { ...fields, password }
  return { id: String(user.id), ...fields, password, roles: roleIds, timezone: user.timezone }
}
