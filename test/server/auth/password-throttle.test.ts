// Checking a password waits on the thread pool (scrypt), so guesses sent in parallel are all in flight
// at once: each must count against the throttle before its check, or a burst of them would all be tried
// where the throttle allows 5. The users' hashes cost enough (N=2^14) for a burst to overlap.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { useScryptCost } from '../../../src/server/auth/password-hash'
import { newPasswordSync } from '../../../src/server/auth/passwords'
import { DEFAULT_USER_ROLE } from '../../../src/server/store/users'
import { anonymous, loginAs } from '../../support/api-client'
import { TEST_SCRYPT_COST } from '../../support/fast-passwords'
import { startTestServer, type TestServer } from '../../support/in-process-server'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
  useScryptCost({ N: 2 ** 14, r: 8, p: 1 })
  for (const uname of ['sam', 'tess']) {
    server.store.users.create({ uname, password: newPasswordSync(`${uname}-secret`, uname), roleIds: [DEFAULT_USER_ROLE] })
  }
  useScryptCost(TEST_SCRYPT_COST)
})
afterAll(() => server.stopAndClean())

const BURST = 12
const expected = (checked: number) => [...Array(5).fill(checked), ...Array(BURST - 5).fill(429)]

it('form login: of a burst of parallel wrong passwords, 5 are checked and the rest refused unchecked', async () => {
  const guessers = await Promise.all(Array.from({ length: BURST }, () => anonymous(server.baseUrl)))
  const answers = await Promise.all(
    guessers.map((g, i) =>
      g.post('/z_security_check', { z_username: 'sam', z_password: `guess-${i}-wrong` }, { Accept: 'application/json' })
    )
  )
  expect(answers.map((a) => a.status).sort()).toEqual(expected(401))
})

it('profile/update: of a burst of parallel wrong old passwords, 5 are checked and the rest refused unchecked', async () => {
  const tess = await loginAs(server.baseUrl, 'tess', 'tess-secret')
  const answers = await Promise.all(
    Array.from({ length: BURST }, (_, i) =>
      tess.post('/api/2/profile/update', { oldpassword: `guess-${i}-wrong`, password: 'tess-new-secret' })
    )
  )
  expect(answers.map((a) => a.status).sort()).toEqual(expected(400))
  expect(await loginAs(server.baseUrl, 'tess', 'tess-new-secret').catch(() => 'refused')).toBe('refused')
})
