// admin/roles/list|create|update|delete|adduser|removeuser|updateactive (spec: Role, Admin roles;
// compat 6.11). Roles are a version 2 resource, served under every prefix (GEN-6 allows it).
import { z } from 'zod'
import { BUILTIN_ROLE, roleListAnswer, type Role } from '../../shared/api/roles'
import { Permission } from '../../shared/codes'
import { endpoint, type ApiEndpoint } from '../http/api'
import { badArgument, HttpError } from '../http/errors'
import { arg } from '../../shared/api/args'
import type { RawParams } from '../http/params'
import { roleDescriptionRule, roleNameRule } from '../../shared/api/roles'
import type { RoleDetail, RoleRecord, RoleRepository, RoleRow } from '../store/roles'
import type { Store } from '../store/store'
import type { UserRepository } from '../store/users'
import { actorOf, detailOf } from './audit'
import type { ApiDeps } from './deps'
import { createdAnswer, emptyAnswer } from '../../shared/api/common'

const MAX_ROWS = 1000
const PERMISSION_BITS = [Permission.Collector, Permission.View, Permission.ServiceActions]
const ALL_PERMISSIONS = PERMISSION_BITS.reduce((all, bit) => all | bit, 0)
/** Indexed row arguments: hostsN, hostgroupsN, permissionN (alias permissionsN, compat 6.11), useridN. */
const ROW_ARGUMENT = /^(hosts|hostgroups|permissions?|userid)(\d+)$/

/**
 * Runs a write to users, roles or memberships in one transaction, refusing (and rolling back) any that
 * would leave no user with an active administrator role: the server must always stay administrable.
 * (The repositories' writes bump the permission generation, so no cached permission outlives them.)
 */
export function changeAccess<T>(store: Store, write: () => T): T {
  return store.transaction(() => {
    const result = write()
    if (store.users.administratorCount() === 0) {
      throw new HttpError(400, 'refused: no user would be left with an active administrator role')
    }
    return result
  })
}

const roleParams = {
  name: roleNameRule,
  admin: arg.bool(),
  active: arg.bool(),
  description: roleDescriptionRule.optional(),
  rolerowscount: arg.intIn(0, MAX_ROWS, `0 to ${MAX_ROWS}`).optional()
}
const userIds = z.array(arg.int()).min(1)

export function adminRoleEndpoints({ store }: ApiDeps): ApiEndpoint[] {
  const roles = store.roles
  const audited = <T>(
    ctx: Parameters<typeof actorOf>[0],
    action: string,
    id: () => number,
    detail: Record<string, unknown>,
    write: () => T
  ): T =>
    store.auditLog.recording(
      actorOf(ctx),
      () => ({ action, target: `role ${id()} ${roles.find(id())?.name ?? ''}`, detail: detailOf(detail) }),
      () => changeAccess(store, write)
    )
  const rowArguments = new RowArgumentReader(roles, store.users)

  const existingRole = (id: number): RoleRecord => {
    const role = roles.find(id)
    if (!role) throw new HttpError(404, `no role with id ${id}`)
    return role
  }
  const assertNameFree = (name: string, ownId?: number) => {
    const holder = roles.findByName(name)
    if (holder && holder.id !== ownId) throw new HttpError(409, `a role named '${name}' exists already`)
  }
  const assertUsersExist = (ids: readonly number[]) => {
    const unknown = store.users.missing(ids)
    if (unknown.length > 0) throw badArgument('userid', `no user with id ${unknown[0]}`)
  }

  return [
    endpoint({
      path: 'admin/roles/list',
      summary: 'Every role with its permission rows and members',
      answer: roleListAnswer,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: {},
      handle: () => roles.list().map(roleView)
    }),
    endpoint({
      path: 'admin/roles/create',
      summary: 'Creates a role; rows as hostsN, hostgroupsN, permissionN, members as useridN',
      answer: createdAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: roleParams,
      handle: (ctx) => {
        const { params, raw } = ctx
        const { rows, memberIds } = rowArguments.read(raw, params.rolerowscount)
        assertNameFree(params.name)
        const definition = { name: params.name, description: params.description ?? '', admin: params.admin, active: params.active, rows }
        let id = 0
        audited(
          ctx,
          'role.create',
          () => id,
          { admin: params.admin, active: params.active, rows: rows.length, members: memberIds },
          () => {
            id = roles.create(definition, memberIds)
          }
        )
        return { id }
      }
    }),
    endpoint({
      path: 'admin/roles/update',
      summary: 'Replaces a role; rows and members as in create',
      answer: emptyAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int(), ...roleParams },
      handle: (ctx) => {
        const { params, raw } = ctx
        const role = existingRole(params.id)
        assertBuiltinRulesKept(role, params)
        const { rows, memberIds } = rowArguments.read(raw, params.rolerowscount)
        assertNameFree(params.name, role.id)
        // An update without a description keeps the one the role has.
        const definition = {
          name: params.name,
          description: params.description ?? role.description,
          admin: params.admin,
          active: params.active,
          rows
        }
        const detail = { admin: params.admin, active: params.active, rows: rows.length, members: memberIds }
        audited(
          ctx,
          'role.update',
          () => role.id,
          detail,
          () => roles.update(role.id, definition, memberIds)
        )
        return {}
      }
    }),
    endpoint({
      path: 'admin/roles/delete',
      summary: 'Deletes a role (not a built-in one)',
      answer: emptyAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int() },
      handle: (ctx) => {
        const { params } = ctx
        const role = existingRole(params.id)
        if (role.buildin) throw new HttpError(400, 'built-in role cannot be deleted')
        store.auditLog.recording(actorOf(ctx), { action: 'role.delete', target: `role ${role.id} ${role.name}` }, () =>
          changeAccess(store, () => roles.delete(params.id))
        )
        return {}
      }
    }),
    endpoint({
      path: 'admin/roles/adduser',
      summary: 'Adds users to a role',
      answer: emptyAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int(), userid: userIds },
      handle: (ctx) => {
        const { params } = ctx
        existingRole(params.id)
        assertUsersExist(params.userid)
        audited(
          ctx,
          'role.adduser',
          () => params.id,
          { users: params.userid },
          () => roles.addMembers(params.id, params.userid)
        )
        return {}
      }
    }),
    endpoint({
      path: 'admin/roles/removeuser',
      summary: 'Removes users from a role',
      answer: emptyAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int(), userid: userIds },
      handle: (ctx) => {
        const { params } = ctx
        existingRole(params.id)
        assertUsersExist(params.userid)
        audited(
          ctx,
          'role.removeuser',
          () => params.id,
          { users: params.userid },
          () => roles.removeMembers(params.id, params.userid)
        )
        return {}
      }
    }),
    endpoint({
      path: 'admin/roles/updateactive',
      summary: 'Activates or deactivates a role',
      answer: emptyAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int(), active: arg.bool() },
      handle: (ctx) => {
        const { params } = ctx
        const role = existingRole(params.id)
        if (role.id === BUILTIN_ROLE.Administrator && !params.active) {
          throw badArgument('active', 'the Administrator role cannot be deactivated')
        }
        audited(
          ctx,
          'role.updateactive',
          () => role.id,
          { active: params.active },
          () => roles.setActive(role.id, params.active)
        )
        return {}
      }
    })
  ]
}

/** Built-in roles keep their names, and the Administrator role stays an active administrator role. */
function assertBuiltinRulesKept(role: RoleRecord, change: { name: string; admin: boolean; active: boolean }): void {
  if (role.buildin && change.name !== role.name) {
    throw badArgument('name', 'a built-in role cannot be renamed')
  }
  if (role.id !== BUILTIN_ROLE.Administrator) return
  if (!change.admin) throw badArgument('admin', 'the Administrator role must stay an administrator role')
  if (!change.active) throw badArgument('active', 'the Administrator role cannot be deactivated')
}

/** The list shape of compat 6.11: permission bits as text, member user ids as text. */
function roleView(role: RoleDetail): Role {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    admin: role.admin,
    active: role.active,
    buildin: role.buildin,
    rolerows: role.rows.map((row) => ({
      hosts: row.hostIds,
      hostgroups: row.groupIds,
      permission: PERMISSION_BITS.filter((bit) => (row.permission & bit) !== 0).map(String)
    })),
    members: { users: role.memberIds.map(String) }
  }
}

interface RoleRowArguments {
  rows: RoleRow[]
  /** Undefined when no useridN argument was sent: the members stay as they are. */
  memberIds?: number[]
}

/** Reads the indexed row arguments, checking every id they name exists. */
class RowArgumentReader {
  constructor(
    private readonly roles: RoleRepository,
    private readonly users: UserRepository
  ) {}

  read(raw: RawParams, rolerowscount = 0): RoleRowArguments {
    const rows = new Map<number, RoleRow>()
    const row = (index: number) => {
      let found = rows.get(index)
      if (!found) rows.set(index, (found = { hostIds: [], groupIds: [], permission: 0 }))
      return found
    }
    for (let i = 0; i < rolerowscount; i++) row(i)
    let memberIds: number[] | undefined
    for (const [name, values] of raw) {
      const match = ROW_ARGUMENT.exec(name)
      if (!match) continue
      const index = Number(match[2])
      if (index >= MAX_ROWS) throw badArgument(name, `row index beyond ${MAX_ROWS - 1}`)
      switch (match[1]) {
        case 'hosts':
          row(index).hostIds.push(...this.ids(name, values, 'host', (ids) => this.roles.missingHosts(ids)))
          break
        case 'hostgroups':
          row(index).groupIds.push(...this.ids(name, values, 'host group', (ids) => this.roles.missingGroups(ids)))
          break
        case 'userid':
          memberIds = [...(memberIds ?? []), ...this.ids(name, values, 'user', (ids) => this.users.missing(ids))]
          break
        default:
          row(index).permission |= permissionOf(name, values)
      }
    }
    return { rows: [...rows.entries()].sort(([a], [b]) => a - b).map(([, r]) => r), memberIds }
  }

  /** Empty values are skipped: a form with nothing selected sends the key alone. */
  private ids(name: string, values: readonly string[], kind: string, missing: (ids: number[]) => number[]): number[] {
    const ids = values.filter((v) => v.trim() !== '').map((v) => wholeNumber(name, v))
    const unknown = missing(ids)
    if (unknown.length > 0) throw badArgument(name, `no ${kind} with id ${unknown[0]}`)
    return ids
  }
}

/** A bitmap 0–7, or single bits sent repeatedly and OR-ed together. */
function permissionOf(name: string, values: readonly string[]): number {
  return values
    .filter((v) => v.trim() !== '')
    .reduce((bits, v) => {
      const n = wholeNumber(name, v)
      if (n < 0 || (n & ~ALL_PERMISSIONS) !== 0) {
        throw badArgument(name, `expected a permission bitmap from 0 to ${ALL_PERMISSIONS}`)
      }
      return bits | n
    }, 0)
}

function wholeNumber(name: string, value: string): number {
  const parsed = arg.int().safeParse(value)
  if (!parsed.success) throw badArgument(name, `expected a whole number`)
  return parsed.data
}
