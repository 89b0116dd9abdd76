// Agents post every few seconds with the same Basic header: once verified, it is not hashed again, even
// after edits elsewhere bump the users' generation (each would cost a scrypt, for every agent); a changed
// password is hashed, and refused, at once.
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import * as passwordHash from '../../../src/server/auth/password-hash'
import { BUILTIN_ROLE } from '../../../src/shared/api/roles'
import { postCollector } from '../../support/collector-client'
import { asAgent, fixture } from '../../support/fixtures'
import { startTestServer, type TestServer } from '../../support/in-process-server'
import { addUser } from '../../support/users'
import { newPasswordSync } from '../../../src/server/auth/passwords'

vi.mock('../../../src/server/auth/password-hash', { spy: true })

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
  addUser(server.store, { uname: 'agents', password: 'agents-secret', roleIds: [BUILTIN_ROLE.Collector] })
})
afterAll(() => server.stopAndClean())

const body = asAgent(fixture('02-status-heartbeat'), 'eeee0000000000000000000000000001', 'echo')
const post = (auth: string) => postCollector(server.baseUrl, body, { auth }).then((r) => r.status)

it('hashes a header once, through edits of other users; a new password is checked at once', async () => {
  const hashes = vi.mocked(passwordHash.verifyPassword)
  hashes.mockClear()
  expect(await post('agents:agents-secret')).toBe(200)
  expect(hashes).toHaveBeenCalledTimes(1)
  addUser(server.store, { uname: 'someone', password: 'someone-secret', roleIds: [] })
  server.store.users.update(server.store.users.findByName('someone')!.id, { fullname: 'Someone' })
  expect(await post('agents:agents-secret')).toBe(200)
  expect(await post('agents:agents-secret')).toBe(200)
  expect(hashes).toHaveBeenCalledTimes(1)

  const agents = server.store.users.findByName('agents')!
  server.store.users.update(agents.id, { password: newPasswordSync('rotated-secret', 'agents') })
  expect(await post('agents:agents-secret')).toBe(401)
  expect(await post('agents:rotated-secret')).toBe(200)
})
