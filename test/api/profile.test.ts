// profile/get: the console's "who am I" with the permissions it may offer and the CSRF token;
// profile/update: the caller's own name, e-mail, time zone and password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorBody, loginAs } from '../support/api-client'
import { startTestServer, type TestServer } from '../support/in-process-server'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
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
    const role = await admin.post('/api/2/admin/roles/create', {
      name: 'viewers',
      admin: false,
      active: true,
      rolerowscount: 1,
      permission0: 2
    })
    const roleid = (role.json as { id: number }).id
    expect(
      (await admin.post('/api/2/admin/users/create', { uname: 'vic', password: 'vic-secret', fullname: 'Vic Viewer', roleid })).status
    ).toBe(200)
    const viewer = await loginAs(server.baseUrl, 'vic', 'vic-secret')
    expect((await viewer.get('/api/2/profile/get')).json).toMatchObject({
      uname: 'vic',
      fullname: 'Vic Viewer',
      admin: false,
      serviceactions: false
    })
  })
})

describe('profile/update', () => {
  it('changes the own full name and e-mail, CSRF-protected', async () => {
    const admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    await admin.post('/api/2/admin/users/create', { uname: 'pat', password: 'pw-pat-1', fullname: 'Pat', roleid: 3 })
    const pat = await loginAs(server.baseUrl, 'pat', 'pw-pat-1', { csrf: 'on' })
    expect((await pat.post('/api/2/profile/update', { fullname: 'Pat Smith' })).json).toEqual({ error: 'Invalid CSRF token' })
    const token = await pat.csrfToken()
    const res = await pat.post('/api/2/profile/update', { fullname: 'Pat Smith', email: 'pat@example.org' }, { CSRFToken: token })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ uname: 'pat', fullname: 'Pat Smith', email: 'pat@example.org', admin: false })
    expect((await pat.post('/api/2/profile/update', { email: 'not-an-address' }, { CSRFToken: token })).json).toEqual(
      errorBody("invalid argument 'email': expected an e-mail address")
    )
    expect((await pat.post('/api/2/profile/update', { fullname: ' ' }, { CSRFToken: token })).json).toEqual(
      errorBody("invalid argument 'fullname': must not be empty")
    )
  })

  it('sets the own time zone (an IANA name, spelt as the platform spells it), refuses anything else, and an admin may set it too', async () => {
    const admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    const created = await admin.post('/api/2/admin/users/create', { uname: 'zoe', password: 'pw-zoe-1', fullname: 'Zoe', roleid: 3 })
    const id = Number((created.json as { id: number | string }).id)
    const zoe = await loginAs(server.baseUrl, 'zoe', 'pw-zoe-1', { csrf: 'on' })
    const token = await zoe.csrfToken()
    const before = (await zoe.get('/api/2/profile/get')).json as { timezone: string; servertimezone: string }
    expect(before.timezone).toBe('')
    expect(before.servertimezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone)
    expect((await zoe.post('/api/2/profile/update', { timezone: 'europe/oslo' }, { CSRFToken: token })).json).toMatchObject({
      timezone: 'Europe/Oslo'
    })
    for (const bad of ['Mars/Olympus_Mons', '+01:00', '../../etc/passwd', 'x'.repeat(65)]) {
      const res = await zoe.post('/api/2/profile/update', { timezone: bad }, { CSRFToken: token })
      expect(res.status).toBe(400)
      expect((res.json as { error: string }).error).toMatch(/^invalid argument 'timezone': (expected an IANA time zone|longer than 64)/)
    }
    expect(((await zoe.get('/api/2/profile/get')).json as { timezone: string }).timezone).toBe('Europe/Oslo')
    // An administrator edits it as any other field of the user; '' is the server's zone again.
    const update = async (timezone: string) => {
      const { password } = (await admin.get(`/api/2/admin/users/get?id=${id}`)).json as { password: string }
      return admin.post('/api/2/admin/users/update', { id, uname: 'zoe', fullname: 'Zoe', password, roleid: 3, timezone })
    }
    expect((await update('Asia/Tokyo')).json).toMatchObject({ timezone: 'Asia/Tokyo' })
    expect((await update('Nowhere/City')).status).toBe(400)
    expect((await admin.get(`/api/2/admin/users/get?id=${id}`)).json).toMatchObject({ timezone: 'Asia/Tokyo' })
    await update('')
    expect(((await zoe.get('/api/2/profile/get')).json as { timezone: string }).timezone).toBe('')
  })

  it('changes the own password only with the old one, and ends the other sessions', async () => {
    const admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    await admin.post('/api/2/admin/users/create', { uname: 'quinn', password: 'old-pw-1', fullname: 'Quinn', roleid: 3 })
    const quinn = await loginAs(server.baseUrl, 'quinn', 'old-pw-1')
    const elsewhere = await loginAs(server.baseUrl, 'quinn', 'old-pw-1')
    expect((await quinn.post('/api/2/profile/update', { password: 'new-pw-2' })).json).toEqual(
      errorBody("invalid argument 'oldpassword': is required to set a new password")
    )
    expect((await quinn.post('/api/2/profile/update', { oldpassword: 'guess', password: 'new-pw-2' })).json).toEqual(
      errorBody("invalid argument 'oldpassword': does not match your current password")
    )
    expect((await quinn.post('/api/2/profile/update', { oldpassword: 'old-pw-1', password: 'new-pw-2' })).status).toBe(200)

    expect((await quinn.get('/api/2/profile/get')).json).toMatchObject({ uname: 'quinn' })
    expect((await elsewhere.get('/api/2/profile/get')).headers['content-type']).toBe('text/html')
    await expect(loginAs(server.baseUrl, 'quinn', 'old-pw-1')).rejects.toThrow(/login of quinn failed/)
    expect((await (await loginAs(server.baseUrl, 'quinn', 'new-pw-2')).get('/api/2/profile/get')).status).toBe(200)
  })

  it('refuses a new password shorter than 8 characters with 400; flags a weak one as unsafe, a strong one not', async () => {
    const admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    await admin.post('/api/2/admin/users/create', { uname: 'sol', password: 'old-pw-1', fullname: 'Sol', roleid: 3 })
    const sol = await loginAs(server.baseUrl, 'sol', 'old-pw-1')
    expect((await sol.post('/api/2/profile/update', { oldpassword: 'old-pw-1', password: 'short' })).json).toEqual(
      errorBody("invalid argument 'password': must be at least 8 characters")
    )
    const unsafe = () => server.store.users.findByName('sol')!.password_unsafe
    expect((await sol.post('/api/2/profile/update', { oldpassword: 'old-pw-1', password: 'password1' })).status).toBe(200)
    expect(unsafe()).toBe(1)
    expect((await sol.post('/api/2/profile/update', { oldpassword: 'password1', password: 'sol-strong-pw' })).status).toBe(200)
    expect(unsafe()).toBe(0)
  })

  it('is throttled like the login: after 5 wrong old passwords the right one gets 429 and nothing changes', async () => {
    const admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    expect((await admin.post('/api/2/admin/users/create', { uname: 'rae', password: 'old-pw-1', fullname: 'Rae', roleid: 3 })).status).toBe(
      200
    )
    const rae = await loginAs(server.baseUrl, 'rae', 'old-pw-1')
    const before = server.store.users.credentialsOf('rae')!.password_hash
    for (let i = 0; i < 5; i++) {
      expect((await rae.post('/api/2/profile/update', { oldpassword: `guess${i}`, password: 'new-pw-2' })).status).toBe(400)
    }
    const refused = await rae.post('/api/2/profile/update', { oldpassword: 'old-pw-1', password: 'new-pw-2' })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(290)
    expect(refused.json).toEqual({ error: expect.stringMatching(/^Too many failed logins; try again in \d+ seconds$/) })
    expect(server.store.users.credentialsOf('rae')!.password_hash).toBe(before)
    // One throttle for every password check: the form login of rae from here is locked too, not admin's.
    await expect(loginAs(server.baseUrl, 'rae', 'old-pw-1')).rejects.toThrow(/failed: 429/)
    expect((await (await loginAs(server.baseUrl, 'admin', 'adminsecret')).get('/api/2/profile/get')).status).toBe(200)
  })
})
