// A Basic header not seen before is checked on the thread pool, at the real scrypt cost: the event loop
// goes on meanwhile (a fleet of agents with accounts of their own, posting after a restart, held it a
// hash each when the check ran on the main thread).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BasicAuthenticator, Refused, Throttled } from '../../../src/server/auth/basic-auth'
import { LoginThrottle } from '../../../src/server/auth/login-throttle'
import { DEFAULT_SCRYPT_COST, useScryptCost } from '../../../src/server/auth/password-hash'
import { Principals } from '../../../src/server/auth/principals'
import { DEFAULT_USER_ROLE } from '../../../src/server/store/users'
import { TEST_SCRYPT_COST } from '../../support/fast-passwords'
import { tempStore, type TempStore } from '../../support/temp-store'
import { addUser } from '../../support/users'

let t: TempStore
let authenticator: BasicAuthenticator
const header = (auth: string) => `Basic ${Buffer.from(auth).toString('base64')}`

beforeAll(() => {
  useScryptCost(DEFAULT_SCRYPT_COST)
  t = tempStore()
  addUser(t.store, { uname: 'agent7', password: 'agent7-secret', roleIds: [DEFAULT_USER_ROLE] })
  authenticator = new BasicAuthenticator(t.store.users, new Principals(t.store.users), new LoginThrottle(), t.store.auditLog)
})
afterAll(() => {
  useScryptCost(TEST_SCRYPT_COST)
  t.close()
})

describe('Basic credentials not in the cache', () => {
  it('are checked while the event loop turns, right or wrong', async () => {
    for (const [auth, accepted] of [
      ['agent7:agent7-secret', true],
      ['agent7:wrong-secret', false]
    ] as const) {
      let turned = false
      const checked = authenticator.authenticate(header(auth), '127.0.0.1')
      setImmediate(() => (turned = true))
      const principal = await checked
      expect([auth, turned, !(principal instanceof Refused)]).toEqual([auth, true, accepted])
    }
  })
})

describe('the same new header many times at once (agents behind one address restarting together)', () => {
  it('is checked once, and counted once against the throttle: the right password is never locked out', async () => {
    addUser(t.store, { uname: 'agent8', password: 'agent8-secret', roleIds: [DEFAULT_USER_ROLE] })
    const auth = header('agent8:agent8-secret')
    const results = await Promise.all(Array.from({ length: 12 }, () => authenticator.authenticate(auth, '127.0.0.9')))
    expect(results.every((r) => !(r instanceof Refused) && !(r instanceof Throttled))).toBe(true)
    expect(
      Number(t.store.sql.rows<{ n: number }>(`SELECT COUNT(*) AS n FROM audit_log WHERE action = 'login' AND address = '127.0.0.9'`)[0].n)
    ).toBe(1)
  })
})
