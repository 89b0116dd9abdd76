// A user who may only view some hosts (or host groups), made directly in the store, logged in.
import { Permission } from '../../src/shared/codes'
import { loginAs, type ApiClient } from './api-client'
import type { TestServer } from './in-process-server'

export async function viewerOf(server: TestServer, uname: string, grant: { hosts?: number[]; groups?: number[] }): Promise<ApiClient> {
  const { db, sql, users } = server.store
  const role = sql.first(db.insertInto('role').values({ name: `${uname} role`, admin: 0, active: 1 }).returning('id'))!
  const row = sql.first(db.insertInto('role_row').values({ role_id: role.id, permission: Permission.View, position: 0 }).returning('id'))!
  for (const host_id of grant.hosts ?? []) sql.run(db.insertInto('role_row_host').values({ row_id: row.id, host_id }))
  for (const group_id of grant.groups ?? []) sql.run(db.insertInto('role_row_group').values({ row_id: row.id, group_id }))
  users.create({ uname, password: `${uname}-secret`, roleIds: [role.id] })
  // Written behind the API's back: make cached permissions be recomputed.
  users.generation++
  return loginAs(server.baseUrl, uname, `${uname}-secret`)
}
