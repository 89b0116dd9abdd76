// The JSON shape of a role in our admin/roles answers, and the rules for a role's name and description,
// shared by the server and the console (whose role form checks them before sending).
import { z } from 'zod'

export const roleNameRule = z.string().trim().min(1, 'must not be empty').max(100, 'longer than 100 characters')
export const roleDescriptionRule = z.string().max(1000, 'longer than 1000 characters')
export const roleFormRules = z.object({ name: roleNameRule, description: roleDescriptionRule })

/** A role's own fields, without its rows and members. */
export interface RoleFields {
  id: number
  name: string
  description: string
  admin: boolean
  active: boolean
  buildin: boolean
}

export interface RoleRowView {
  hosts: number[]
  hostgroups: number[]
  /** Permission bits as text, e.g. ["1", "2"]. */
  permission: string[]
}

/** A role as admin/roles/list answers it (compat 6.11). */
export interface Role extends RoleFields {
  rolerows: RoleRowView[]
  members: { users: string[] }
}
