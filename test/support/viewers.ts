// A user who may only view some hosts (or host groups), made directly in the store, logged in.
import { Permission } from '../../src/shared/codes'
import { loginAs, type ApiClient } from './api-client'
import type { TestServer } from './in-process-server'
import { addUserWith } from './users'

export async function viewerOf(server: TestServer, uname: string, grant: { hosts?: number[]; groups?: number[] }): Promise<ApiClient> {
  addUserWith(server.store, uname, Permission.View, grant)
  return loginAs(server.baseUrl, uname, `${uname}-secret`)
}
