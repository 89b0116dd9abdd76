// "No 500 on any input": every endpoint the server serves, under every prefix, with hostile values
// for each argument it declares, called by an administrator (who gets past every permission check).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiEndpoints } from '../../src/server/api/endpoints'
import type { ApiEndpoint } from '../../src/server/http/api'
import type { HostStatusEntry, ServiceEntry } from '../../src/shared/api/status'
import { loginAs, type ApiClient } from '../support/api-client'
import { asAgent, fixture } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/in-process-server'

const hostile = [
  '',
  ' ',
  'x',
  '-1',
  '0',
  '1.5',
  '1e400',
  '99999999999999999999',
  'NaN',
  'true',
  '%00',
  '<script>alert(1)</script>',
  "'; DROP TABLE host; --",
  '\u00e9\u{1F600}',
  'a'.repeat(5000)
]

let server: TestServer
let admin: ApiClient
let endpoints: ApiEndpoint[]

const posted = asAgent(fixture('03-event-process-not-running'), 'f'.repeat(32), 'target')
const postedServices = [...posted.toString('latin1').matchAll(/<service name="([^"]+)"/g)].map((m) => m[1]).sort()

/** Every host as the API shows it: id, name and its services' names. */
async function hostsWithServices(): Promise<{ id: number; hostname: string; services: string[] }[]> {
  const list = (await admin.get('/api/2/status/hosts/list')).json as { records: HostStatusEntry[] }
  return Promise.all(
    list.records.map(async (h) => {
      const got = (await admin.get('/api/2/status/hosts/get', { id: h.id })).json as { records: { host: { services: ServiceEntry[] } } }
      return { id: h.id, hostname: h.hostname, services: got.records.host.services.map((s) => s.name).sort() }
    })
  )
}

beforeAll(async () => {
  server = await startTestServer()
  await server.collect(posted)
  // Only the paths, methods and argument names are read here.
  endpoints = apiEndpoints({ store: server.store } as never)
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
})
afterAll(() => server.stopAndClean())

describe('hostile arguments', () => {
  it('never produce a 500, and always answer JSON (or, for an export, its file)', async () => {
    const before = await hostsWithServices()
    expect(before).toEqual([{ id: expect.any(Number), hostname: 'target', services: postedServices }])
    expect(postedServices.length).toBeGreaterThan(5)
    const failures: string[] = []
    for (const e of endpoints.filter((e) => e.path !== 'session/invalidate')) {
      for (const prefix of ['', '/api/1', '/api/2']) {
        for (const value of hostile) {
          const params = Object.fromEntries(Object.keys(e.params).map((k) => [k, [value, value]]))
          const res = e.methods.includes('GET')
            ? await admin.get(`${prefix}/${e.path}`, params)
            : await admin.post(`${prefix}/${e.path}`, params)
          // A CSV export answers its file when the arguments pass; every refusal is JSON.
          const answersFile = e.answer === 'text/csv' && res.status === 200
          if (res.status >= 500 || (res.json === undefined && !answersFile))
            failures.push(`${res.status} ${prefix}/${e.path} ${JSON.stringify(value).slice(0, 30)}: ${res.text.slice(0, 120)}`)
        }
      }
    }
    expect(failures).toEqual([])
    // And the server still stands, data intact: the host posted at the start, with all its services.
    expect(await hostsWithServices()).toEqual(before)
  }, 120_000)
})
