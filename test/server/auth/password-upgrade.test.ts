// Users whose password is stored the old way are upgraded by their next successful login, form or
// Basic: those migration 011 left with the salted SHA-256, and those an M/Monit import brings with only
// the MD5 (auth/passwords.ts importedPassword, for issue 27). The token stays: the password is the same.
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importedPassword } from '../../../src/server/auth/passwords'
import { DEFAULT_USER_ROLE } from '../../../src/server/store/users'
import { BUILTIN_ROLE } from '../../../src/shared/api/roles'
import { loginAs } from '../../support/api-client'
import { postCollector } from '../../support/collector-client'
import { asAgent, fixture } from '../../support/fixtures'
import { startTestServer, type TestServer } from '../../support/in-process-server'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.stopAndClean())

const hex = (algorithm: string, text: string) => createHash(algorithm).update(text).digest('hex')
const stored = (uname: string) => server.store.users.credentialsOf(uname)!
const tokenOf = (uname: string) => server.store.users.findByName(uname)!.password_token
const canLogIn = (uname: string, password: string) =>
  loginAs(server.baseUrl, uname, password).then(
    () => true,
    () => false
  )

/** A user as migration 011 leaves one: sha256(salt + password) in the scheme-tagged hash, flagged unsafe. */
function addLegacyUser(uname: string, password: string, roleIds = [DEFAULT_USER_ROLE]): void {
  const salt = 'a1b2c3d4e5f60718'
  const hash = `sha256$${salt}$${hex('sha256', salt + password)}`
  server.store.users.create({ uname, password: { hash, token: hex('md5', uname), unsafe: true }, roleIds })
}

describe('a user with the salted SHA-256 of before migration 011', () => {
  it('logs in with the form; the hash becomes scrypt, the token stays, the unsafe flag is judged anew', async () => {
    addLegacyUser('olivia', 'olivia-secret')
    const token = tokenOf('olivia')
    expect(await canLogIn('olivia', 'wrong-secret')).toBe(false)
    expect(stored('olivia').password_hash).toMatch(/^sha256\$/)
    expect(await canLogIn('olivia', 'olivia-secret')).toBe(true)
    expect(stored('olivia').password_hash).toMatch(/^scrypt\$/)
    expect(stored('olivia').password_unsafe).toBe(0)
    expect(tokenOf('olivia')).toBe(token)
    expect(await canLogIn('olivia', 'olivia-secret')).toBe(true)
  })

  it('stays flagged unsafe when the password is weak', async () => {
    addLegacyUser('pablo', 'swordfish')
    expect(await canLogIn('pablo', 'swordfish')).toBe(true)
    expect(stored('pablo')).toMatchObject({ password_hash: expect.stringMatching(/^scrypt\$/), password_unsafe: 1 })
  })

  it('an agent posting with Basic auth upgrades its collector user', async () => {
    addLegacyUser('agents', 'agents-secret', [BUILTIN_ROLE.Collector])
    const body = asAgent(fixture('02-status-heartbeat'), 'dddd0000000000000000000000000001', 'delta')
    expect((await postCollector(server.baseUrl, body, { auth: 'agents:agents-secret' })).status).toBe(200)
    expect(stored('agents').password_hash).toMatch(/^scrypt\$/)
    // The cached header still holds after the upgrade, and the new hash verifies the next time.
    expect((await postCollector(server.baseUrl, body, { auth: 'agents:agents-secret' })).status).toBe(200)
    expect((await postCollector(server.baseUrl, body, { auth: 'agents:wrong-secret' })).status).toBe(401)
  })
})

describe("a user imported from M/Monit with only the password's MD5", () => {
  it('is unsafe until the first login verifies the MD5 and replaces it with scrypt', async () => {
    const password = importedPassword(hex('md5', 'mmonit-secret').toUpperCase())!
    expect(password).toMatchObject({ hash: `md5$${hex('md5', 'mmonit-secret')}`, unsafe: true })
    server.store.users.create({ uname: 'imported', password, roleIds: [DEFAULT_USER_ROLE] })
    expect(await canLogIn('imported', 'mmonit-secreT')).toBe(false)
    expect(stored('imported').password_hash).toMatch(/^md5\$/)
    expect(await canLogIn('imported', 'mmonit-secret')).toBe(true)
    expect(stored('imported')).toMatchObject({ password_hash: expect.stringMatching(/^scrypt\$/), password_unsafe: 0 })
    expect(tokenOf('imported')).toBe(password.token)
  })

  it('refuses what is no MD5', () => {
    expect(importedPassword('swordfish')).toBeUndefined()
  })
})
