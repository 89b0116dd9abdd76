// GET /api/2/openapi.json over real HTTP: a valid OpenAPI 3.1 document (checked by an independent
// validator) that lists exactly the endpoints the server routes under /api/2, with our extensions,
// access and CSRF marked.
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpRequest } from '../support/api-client'
import { startTestServer, type TestServer } from '../support/in-process-server'

type Operation = Record<string, unknown> & { security: unknown[]; responses: Record<string, unknown> }
interface Document {
  openapi: string
  paths: Record<string, Record<string, Operation>>
  components: { securitySchemes: Record<string, unknown> }
}

let server: TestServer
let document: Document

beforeAll(async () => {
  server = await startTestServer()
  const res = await httpRequest(server.baseUrl, 'GET', '/api/2/openapi.json')
  expect(res.status).toBe(200)
  expect(res.headers['content-type']).toMatch(/^application\/json/)
  document = res.json as Document
})
afterAll(() => server.stopAndClean())

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, served without a session', async () => {
    const result = await new Validator().validate(document as never)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(document.openapi).toBe('3.1.0')
  })

  it('lists exactly the endpoints the server routes under /api/2', () => {
    const routed = [...new Set(server.routes.filter((url) => url.startsWith('/api/2/')))].sort()
    expect(Object.keys(document.paths).sort()).toEqual(routed)
    expect(routed.length).toBeGreaterThan(60)
  })

  it('has every endpoint of /api/1 and the legacy paths under /api/2 too, so the listing covers them', () => {
    const api2 = new Set(Object.keys(document.paths).map((p) => p.slice('/api/2'.length)))
    const others = server.routes.filter((url) => url.startsWith('/api/1/')).map((url) => url.slice('/api/1'.length))
    expect(others.filter((path) => !api2.has(path))).toEqual([])
  })

  it('marks our extensions, the access rule and the mutations needing the CSRF token', () => {
    const op = (path: string, method = 'get') => document.paths[`/api/2/${path}`][method]
    expect(op('status/hosts/list')['x-overseer-extension']).toBeUndefined()
    expect(op('status/hosts/overview')['x-overseer-extension']).toBe(true)
    expect(op('admin/users/list')['x-overseer-access']).toBe('admin')
    expect(op('admin/roles/create', 'post')).toMatchObject({
      'x-overseer-mutation': true,
      security: [{ session: [], csrfToken: [] }, { bearer: [] }]
    })
    // An API token is no way in where a session is needed (a token must not make tokens).
    expect(op('tokens/create', 'post').security).toEqual([{ session: [], csrfToken: [] }])
    expect(op('session/get').security).toEqual([{ session: [] }])
    expect(op('setup/status')).toMatchObject({ 'x-overseer-access': 'public', security: [] })
    expect(op('live').responses[200]).toMatchObject({ content: { 'text/event-stream': {} } })
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['bearer', 'collector', 'csrfToken', 'session'])
  })

  it('describes arguments as sent (text) and answers as received (typed)', () => {
    const get = document.paths['/api/2/status/hosts/get'].get as unknown as {
      parameters: { name: string; required: boolean; schema: { type: string } }[]
    }
    expect(get.parameters.find((p) => p.name === 'id')).toMatchObject({ required: true, schema: { type: 'string' } })
    const answer = (document.paths['/api/2/status/hosts/summary'].get.responses[200] as { content: Record<string, { schema: unknown }> })
      .content['application/json'].schema
    expect(answer).toMatchObject({ type: 'object', required: ['status'] })
  })
})
