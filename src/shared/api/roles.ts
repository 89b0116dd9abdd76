// The contracts of admin/roles/*, and the rules for a role's name and description, shared by the server
// and the console (whose role form checks them before sending).
import { z } from 'zod'

/** The roles the schema creates: the Administrator role cannot be deactivated or lose its admin flag. */
export const BUILTIN_ROLE = { Administrator: 1, Collector: 2 } as const

export const roleNameRule = z.string().trim().min(1, 'must not be empty').max(100, 'longer than 100 characters')
export const roleDescriptionRule = z.string().max(1000, 'longer than 1000 characters')
export const roleFormRules = z.object({ name: roleNameRule, description: roleDescriptionRule })

/** A role's own fields, without its rows and members. */
export const roleFields = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  admin: z.boolean(),
  active: z.boolean(),
  buildin: z.boolean()
})
export type RoleFields = z.infer<typeof roleFields>

export const roleRowView = z.object({
  hosts: z.array(z.number().int()),
  hostgroups: z.array(z.number().int()),
  permission: z.array(z.string()).describe('Permission bits as text, e.g. ["1", "2"]')
})
export type RoleRowView = z.infer<typeof roleRowView>

/** A role as admin/roles/list answers it (compat 6.11). */
export const role = roleFields.extend({
  rolerows: z.array(roleRowView),
  members: z.object({ users: z.array(z.string()) })
})
export type Role = z.infer<typeof role>

export const roleListAnswer = z.array(role)
