// The API token service on a real store with its clock injected: a token is valid until the second it
// expires, the last-use stamp is written at most once a minute, and only `Bearer` headers carry one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiTokenService, bearerToken } from '../../../src/server/auth/api-tokens'
import { Principals } from '../../../src/server/auth/principals'
import { DEFAULT_USER_ROLE } from '../../../src/server/store/users'
import { tempStore, type TempStore } from '../../support/temp-store'
import { addUser } from '../../support/users'

const clock = { sec: 1_800_000_000 }
let temp: TempStore
let service: ApiTokenService
let userId: number

beforeAll(() => {
  temp = tempStore()
  service = new ApiTokenService(temp.store.apiTokens, new Principals(temp.store.users), () => clock.sec)
  userId = addUser(temp.store, { uname: 'script', password: 'script-secret', roleIds: [DEFAULT_USER_ROLE] })
})
afterAll(() => temp.close())

const lastUsed = (id: number) => service.list(userId).find((t) => t.id === id)!.lastused

describe('ApiTokenService', () => {
  it('accepts a token until the second it expires', () => {
    const made = service.create(userId, { name: 'a day', scope: 'read', expiresInDays: 1 })
    expect(made.expires).toBe(clock.sec + 86_400)
    clock.sec = made.expires! - 1
    expect(service.authenticate(made.token)?.principal.userId).toBe(userId)
    clock.sec = made.expires!
    expect(service.authenticate(made.token)).toBeUndefined()
  })

  it('stamps the last use at most once a minute', () => {
    const made = service.create(userId, { name: 'busy', scope: 'full' })
    const first = clock.sec
    expect(service.authenticate(made.token)?.token).toEqual({ id: made.id, scope: 'full' })
    expect(lastUsed(made.id)).toBe(first)
    clock.sec = first + 59
    service.authenticate(made.token)
    expect(lastUsed(made.id)).toBe(first)
    clock.sec = first + 60
    service.authenticate(made.token)
    expect(lastUsed(made.id)).toBe(first + 60)
  })

  it('reads a token only from an Authorization: Bearer header', () => {
    expect(bearerToken('Bearer ovs_abc')).toBe('ovs_abc')
    expect(bearerToken('bearer   ovs_abc  ')).toBe('ovs_abc')
    expect(bearerToken('Bearer')).toBe('')
    expect(bearerToken('Basic YTpi')).toBeUndefined()
    expect(bearerToken('Bearerovs_abc')).toBeUndefined()
    expect(bearerToken(undefined)).toBeUndefined()
  })
})
