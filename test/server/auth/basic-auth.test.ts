// HTTP Basic credentials are throttled like the login form (issue 12, item 5), over real HTTP on
// loopback: 127.0.0.1 is the guesser, 127.0.0.2 an agent on another machine. The throttle's clock is
// injected, so "the window passes" takes no five minutes.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { LoginThrottle } from '../../../src/server/auth/login-throttle'
import { DEFAULT_USER_ROLE } from '../../../src/server/store/users'
import { postCollector, type PostOptions } from '../../support/collector-client'
import { asAgent, fixture } from '../../support/fixtures'
import { startTestServer, type TestServer } from '../../support/in-process-server'
import { addUser } from '../../support/users'
import { hostOfAgent } from '../../support/hosts'

const clock = { sec: Date.now() / 1000 }
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ loginThrottle: new LoginThrottle({ now: () => clock.sec, maxEntries: 50 }) })
  // The built-in User role: view on every host.
  addUser(server.store, { uname: 'prometheus', password: 'scrapesecret', roleIds: [DEFAULT_USER_ROLE] })
})
afterAll(() => server.stopAndClean())
// Every test starts with the window of the previous one passed.
beforeEach(() => {
  clock.sec += 301
})

const agentId = (n: number) => `cccc00000000000000000000000000${String(n).padStart(2, '0')}`
const message = (n: number) => asAgent(fixture('02-status-heartbeat'), agentId(n))
const post = (auth: string, opts: PostOptions = {}) => postCollector(server.baseUrl, message(1), { auth, ...opts })
const basic = (auth: string) => ({ Authorization: `Basic ${Buffer.from(auth).toString('base64')}` })
const scrape = (auth: string) => fetch(`${server.baseUrl}/metrics`, { headers: basic(auth) })

describe('POST /collector: failed Basic credentials are throttled per address and user name', () => {
  it('after 5 wrong passwords the right one is refused too (cached header included) until the window passes', async () => {
    expect((await post('monit:collect0r')).status).toBe(200) // the header is now cached as verified
    for (let i = 0; i < 5; i++) expect((await post(`monit:guess${i}`)).status).toBe(401)

    const refused = await post('monit:collect0r')
    expect(refused.status).toBe(429)
    expect(refused.headers['retry-after']).toBe('300')
    expect(refused.headers['www-authenticate']).toBe('Basic realm="collector"')
    expect(JSON.parse(refused.body)).toEqual({ error: 'Too many failed logins; try again in 300 seconds' })
    expect((await postCollector(server.baseUrl, message(2), { auth: 'monit:collect0r' })).status).toBe(429)
    expect(hostOfAgent(server.store, agentId(2))).toBeUndefined()

    clock.sec += 120
    expect((await post('monit:collect0r')).headers['retry-after']).toBe('180')
    clock.sec += 180
    expect((await post('monit:collect0r')).status).toBe(200)
  })

  it('an agent posting its typo through the lock does not extend it: fixed, it gets in when the window from its first failure ends', async () => {
    for (let i = 0; i < 5; i++) expect((await post('monit:typo')).status).toBe(401)
    for (let minute = 1; minute <= 4; minute++) {
      clock.sec += 60
      expect((await post('monit:typo')).status).toBe(429)
    }
    expect((await post('monit:collect0r')).headers['retry-after']).toBe('60')
    clock.sec += 60
    expect((await post('monit:collect0r')).status).toBe(200)
  })

  it('an agent on another address with the right credentials posts fine while 127.0.0.1 is locked', async () => {
    for (let i = 0; i < 5; i++) expect((await post(`monit:guess${i}`)).status).toBe(401)
    expect((await post('monit:collect0r')).status).toBe(429)
    for (let i = 0; i < 3; i++) expect((await post('monit:collect0r', { localAddress: '127.0.0.2' })).status).toBe(200)
  })

  it('another user from the locked address is let in', async () => {
    for (let i = 0; i < 5; i++) expect((await post(`monit:guess${i}`)).status).toBe(401)
    expect((await post('monit:collect0r')).status).toBe(429)
    expect((await post('admin:adminsecret')).status).toBe(200)
  })

  it('refuses a locked pair without looking the user up, so a guess costs no password digest', async () => {
    for (let i = 0; i < 5; i++) await post(`monit:guess${i}`)
    const lookups = vi.spyOn(server.store.users, 'credentialsOf')
    try {
      for (let i = 0; i < 20; i++) expect((await post(`monit:more${i}`)).status).toBe(429)
      expect(lookups).not.toHaveBeenCalled()
    } finally {
      lookups.mockRestore()
    }
  })

  it("a spray of names from the attacker's address, over the throttle's size, does not free the lock", async () => {
    for (let i = 0; i < 5; i++) await post(`monit:guess${i}`)
    for (let name = 0; name < 60; name++) {
      for (let i = 0; i < 5; i++) expect((await post(`spray${name}:x${i}`)).status).toBe(401)
    }
    expect((await post('monit:collect0r')).status).toBe(429)
  })
})

describe('GET /metrics: failed Basic credentials are throttled per address and user name', () => {
  it('after 5 wrong passwords the right one gets 429 until the window passes; another user scrapes fine', async () => {
    expect((await scrape('prometheus:scrapesecret')).status).toBe(200)
    for (let i = 0; i < 5; i++) expect((await scrape(`prometheus:guess${i}`)).status).toBe(401)

    const refused = await scrape('prometheus:scrapesecret')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('300')
    expect(refused.headers.get('www-authenticate')).toBe('Basic realm="metrics"')
    expect(await refused.json()).toEqual({ error: 'Too many failed logins; try again in 300 seconds' })

    expect((await scrape('admin:adminsecret')).status).toBe(200)
    clock.sec += 300
    expect((await scrape('prometheus:scrapesecret')).status).toBe(200)
  })
})
