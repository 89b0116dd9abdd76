// profile/get: the console's "who am I" with the permissions it may offer and the CSRF token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loginAs } from '../support/api-client'
import { startTestServer, type TestServer } from '../support/in-process-server'

let server: TestServer
beforeAll(async () => { server = await startTestServer() })
afterAll(() => server.stopAndClean())

describe('profile/get', () => {
  it('tells an administrator who they are, what they may do and the session CSRF token', async () => {
    const admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    const res = await admin.get('/api/2/profile/get')
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ uname: 'admin', admin: true, serviceactions: true, csrftoken: await admin.csrfToken() })
  })

  it('tells a viewer without action rights that they are neither admin nor allowed actions', async () => {
    const admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    const role = await admin.post('/api/2/admin/roles/create', { name: 'viewers', admin: false, active: true, rolerowscount: 1, permission0: 2 })
    const roleid = (role.json as { id: number }).id
    expect((await admin.post('/api/2/admin/users/create', { uname: 'vic', password: 'pw-vic', fullname: 'Vic Viewer', roleid })).status).toBe(200)
    const viewer = await loginAs(server.baseUrl, 'vic', 'pw-vic')
    expect((await viewer.get('/api/2/profile/get')).json).toMatchObject({ uname: 'vic', fullname: 'Vic Viewer', admin: false, serviceactions: false })
  })
})
