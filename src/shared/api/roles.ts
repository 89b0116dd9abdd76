// The JSON shape of a role in our admin/roles answers, shared by the server and the console.

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
