// map/id/{range,statisticstype,hoststatus} as clients walk them: map → id → name, integer keys as text
// (compat 6.7).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { anonymous, loginAs, PREFIXES, type ApiClient } from '../support/api-client'
import { startTestServer, type TestServer } from '../support/in-process-server'

let server: TestServer
let client: ApiClient
beforeAll(async () => {
  server = await startTestServer()
  client = await loginAs(server.baseUrl, 'admin', 'adminsecret')
})
afterAll(() => server.stopAndClean())

type IdMap = Record<string, string>

async function mapOf(name: string, prefix = '/api/2', method: 'get' | 'post' = 'get'): Promise<IdMap> {
  const res = await client[method](`${prefix}/map/id/${name}`)
  expect(res.status).toBe(200)
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
  const body = res.json as { map: { id: Record<string, IdMap> } }
  expect(Object.keys(body.map.id)).toEqual([name])
  return body.map.id[name]
}

describe('map/id/*', () => {
  it.each(PREFIXES)('serves the range ids under "%s", by GET and POST', async (prefix) => {
    const expected = {
      0: 'now',
      1: 'last hour',
      2: 'last 6 hours',
      3: 'last 12 hours',
      4: 'last 24 hours',
      5: 'week',
      6: 'month',
      7: '3 months',
      8: '6 months',
      9: 'year',
      10: '2 years',
      11: '3 years',
      12: 'custom'
    }
    expect(await mapOf('range', prefix)).toEqual(expected)
    expect(await mapOf('range', prefix, 'post')).toEqual(expected)
  })

  it('serves the statistic type names, M/Monit ids and ours from 1000', async () => {
    const types = await mapOf('statisticstype')
    expect(types).toMatchObject({
      0: 'LoadAverage',
      15: 'PortResponseTime',
      18: 'SpacePercent',
      35: 'ProgramOutput',
      75: 'CertificateValidDays',
      78: 'TimestampModify',
      1000: 'CpuNice'
    })
    expect(Object.keys(types).every((k) => String(Number.parseInt(k, 10)) === k)).toBe(true)
    // Clients invert the map to look ids up by name: names must be unique.
    expect(new Set(Object.values(types)).size).toBe(Object.keys(types).length)
  })

  it.each(PREFIXES)('serves the host status codes under "%s"', async (prefix) => {
    expect(await mapOf('hoststatus', prefix)).toEqual({ 0: 'Active', 1: 'Inactive', 2: 'Ignored' })
  })

  it('writes the keys as strings inside map.id.<name>', async () => {
    const res = await client.get('/map/id/hoststatus')
    expect(res.text).toBe('{"map":{"id":{"hoststatus":{"0":"Active","1":"Inactive","2":"Ignored"}}}}')
  })

  it('answers without a session with the login page', async () => {
    const res = await (await anonymous(server.baseUrl)).get('/api/2/map/id/range')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('text/html')
  })
})
