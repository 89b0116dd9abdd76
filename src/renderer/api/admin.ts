// Administration reads and writes (admin/hosts, users, roles, groups under /api/2). Query keys start
// with 'admin', so the live stream refreshes them when hosts register or go.
import { queryOptions } from '@tanstack/react-query'
import type { Created, TestOutcome } from '../../shared/api/common'
import type { ChangedHostGroup, DeclaredMembersAnswer, GroupList } from '../../shared/api/groups'
import type { AdminHost, AdminHostList } from '../../shared/api/hosts'
import type { Role, RoleRowView } from '../../shared/api/roles'
import type { UserDetail, UserEntry } from '../../shared/api/users'
import { apiGet, apiPost, type ApiParams } from './client'

export type { AdminHost, AdminHostEntry, AdminHostList } from '../../shared/api/hosts'
export type { GroupList, HostGroup } from '../../shared/api/groups'
export type { Role, RoleRowView } from '../../shared/api/roles'
export type { UserDetail, UserEntry } from '../../shared/api/users'

// ---- hosts ----

export interface HostUpdate {
  id: number
  hostname: string
  keepname: number
  description: string
  status: number
  ipaddrout: string
  portout: number
  sslout: number
  agentuser: string
  agentpassword: string
  skew: number
  /** 1: take the agent's reported httpd and latest source address (a host whose credentials are pinned). */
  acceptreported?: number
  /** 1: pin the other certificate the agent presented (agentcertseen). */
  acceptcertificate?: number
}

export const adminHostsQuery = queryOptions({
  queryKey: ['admin', 'hosts'] as const,
  queryFn: () => apiGet<AdminHostList>('admin/hosts/list')
})

export const adminHostQuery = (id: number) =>
  queryOptions({
    queryKey: ['admin', 'hosts', id] as const,
    queryFn: () => apiGet<AdminHost>('admin/hosts/get', { id })
  })

// The password goes as a one-item list: the client drops empty values, and an empty one must be sent
// (it means "keep the stored password").
export const updateHost = (host: HostUpdate) => apiPost<AdminHost>('admin/hosts/update', { ...host, agentpassword: [host.agentpassword] })
export const deleteHost = (id: number) => apiPost('admin/hosts/delete', { id })
/** Deletes every host inactive (stopped or silent) for at least `seconds`. */
export const deleteInactiveHosts = (seconds: number) => apiPost<{ deleted: number }>('admin/hosts/delete', { inactive: seconds })
/** With the host's `id`, an empty password (dropped by the client) tests with the stored one. */
export const testConnection = (target: {
  id: number
  ipaddr: string
  port: number
  ssl: number
  agentuser: string
  agentpassword: string
}) => apiPost<TestOutcome>('admin/hosts/test', target)

// ---- users ----

export interface UserChange {
  uname: string
  fullname: string
  email: string
  /** Empty: keep the password (update only). */
  password: string
  roleid: number[]
  /** IANA name of the alerts e-mailed to the user; '' the server's; absent: kept */
  timezone?: string
}

export const adminUsersQuery = queryOptions({
  queryKey: ['admin', 'users'] as const,
  queryFn: () => apiGet<UserEntry[]>('admin/users/list')
})

export const adminUserQuery = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'users', id] as const,
    queryFn: () => apiGet<UserDetail>('admin/users/get', { id })
  })

export const createUser = (user: UserChange) => apiPost<UserDetail>('admin/users/create', { ...user })

/** api/2 update takes every field; the password's token from get, sent back, keeps the password. */
export async function updateUser(id: string, change: UserChange): Promise<UserDetail> {
  const current = await apiGet<UserDetail>('admin/users/get', { id })
  return apiPost<UserDetail>('admin/users/update', {
    id,
    uname: change.uname,
    fullname: change.fullname,
    email: change.email,
    roleid: change.roleid,
    timezone: change.timezone,
    password: change.password === '' ? current.password : change.password,
    title: current.title,
    phone: current.phone,
    mobile: current.mobile,
    imname: current.imname,
    imtype: current.imtype,
    image: current.image
  })
}

/** A new password for a user, everything else kept. */
export async function setUserPassword(id: string, password: string): Promise<UserDetail> {
  const current = await apiGet<UserDetail>('admin/users/get', { id })
  return updateUser(id, { uname: current.uname, fullname: current.fullname, email: current.email, password, roleid: current.roles })
}

export const deleteUser = (id: string) => apiPost('admin/users/delete', { id })

// ---- roles ----

export const PERMISSION_BITS = [
  { bit: 1, label: 'Collector', hint: 'may report as a Monit agent' },
  { bit: 2, label: 'View', hint: 'may see status, events and reports' },
  { bit: 4, label: 'Service actions', hint: 'may start, stop, restart, monitor and unmonitor' }
] as const

export interface RoleRowDraft {
  hosts: number[]
  hostgroups: number[]
  permission: number
}

export interface RoleDraft {
  id?: number
  name: string
  description: string
  admin: boolean
  active: boolean
  rows: RoleRowDraft[]
}

export const rowPermission = (row: RoleRowView): number => row.permission.reduce((bits, p) => bits | Number(p), 0)

export const adminRolesQuery = queryOptions({
  queryKey: ['admin', 'roles'] as const,
  queryFn: () => apiGet<Role[]>('admin/roles/list')
})

/** create or update, rows as the indexed arguments hostsN, hostgroupsN, permissionN. */
export function saveRole(role: RoleDraft): Promise<{ id?: number }> {
  const params: ApiParams = {
    name: role.name,
    description: role.description,
    admin: role.admin,
    active: role.active,
    rolerowscount: role.rows.length
  }
  role.rows.forEach((row, i) => {
    params[`hosts${i}`] = row.hosts
    params[`hostgroups${i}`] = row.hostgroups
    params[`permission${i}`] = row.permission
  })
  return role.id === undefined ? apiPost<Created>('admin/roles/create', params) : apiPost('admin/roles/update', { ...params, id: role.id })
}

export const deleteRole = (id: number) => apiPost('admin/roles/delete', { id })
export const setRoleActive = (id: number, active: boolean) => apiPost('admin/roles/updateactive', { id, active })
export const addRoleMembers = (id: number, userid: number[]) => apiPost('admin/roles/adduser', { id, userid })
export const removeRoleMembers = (id: number, userid: number[]) => apiPost('admin/roles/removeuser', { id, userid })

// ---- host groups ----

export const adminGroupsQuery = queryOptions({
  queryKey: ['admin', 'groups'] as const,
  queryFn: () => apiGet<GroupList>('admin/groups/list')
})

/** Members of each group that their agent declares (ours: the list keeps M/Monit's shape). */
export const declaredMembersQuery = queryOptions({
  queryKey: ['admin', 'groups', 'declared'] as const,
  queryFn: () => apiGet<DeclaredMembersAnswer>('admin/groups/declared')
})

export const createGroup = (name: string) => apiPost<ChangedHostGroup>('admin/groups/create', { name })
export const renameGroup = (id: number, name: string) => apiPost<ChangedHostGroup>('admin/groups/update', { id, name })
export const deleteGroup = (id: number) => apiPost('admin/groups/delete', { id })
export const addGroupHosts = (id: number, hostid: number[]) => apiPost<ChangedHostGroup>('admin/groups/add', { id, hostid })
export const removeGroupHosts = (id: number, hostid: number[]) => apiPost<ChangedHostGroup>('admin/groups/remove', { id, hostid })
