// Users made directly in the store, behind the API's back (the store takes hashed passwords).
import './fast-passwords'
import { newPasswordSync } from '../../src/server/auth/passwords'
import type { Store } from '../../src/server/store/store'
import type { NewUser } from '../../src/server/store/users'

export function addUser(store: Store, user: Omit<NewUser, 'password'> & { password: string }): number {
  return store.users.create({ ...user, password: newPasswordSync(user.password, user.uname) })
}

/** A user holding `permission` on the given hosts and host groups only; its password is `${uname}-secret`. */
export function addUserWith(store: Store, uname: string, permission: number, grant: { hosts?: number[]; groups?: number[] }): void {
  const { db, sql } = store
  const role = sql.first(
    db
      .insertInto('role')
      .values({ name: `${uname} role`, admin: 0, active: 1 })
      .returning('id')
  )!
  const row = sql.first(db.insertInto('role_row').values({ role_id: role.id, permission, position: 0 }).returning('id'))!
  for (const host_id of grant.hosts ?? []) sql.run(db.insertInto('role_row_host').values({ row_id: row.id, host_id }))
  for (const group_id of grant.groups ?? []) sql.run(db.insertInto('role_row_group').values({ row_id: row.id, group_id }))
  addUser(store, { uname, password: `${uname}-secret`, roleIds: [role.id] })
}
