// The endpoint table's run-time contract check (on in every API test): an answer that breaks its
// endpoint's schema fails the request instead of reaching the client; one that keeps it is sent as is.
// A real fastify app on 127.0.0.1, with public endpoints so that no session is involved.
import fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { endpoint, registerEndpoints, type ApiEndpoint } from '../../../src/server/http/api'
import type { SessionGate } from '../../../src/server/http/session-gate'
import { httpRequest } from '../../support/api-client'

const count = z.object({ count: z.number().int() })
let app: FastifyInstance | undefined
afterEach(() => app?.close())

async function serve(answer: unknown, checkAnswers: boolean): Promise<string> {
  const e: ApiEndpoint = endpoint({
    path: 'count',
    methods: ['GET'],
    access: 'public',
    summary: 'A count',
    params: {},
    answer: count,
    // What a handler typed loosely (any) might return: the type check cannot see it, the run-time check can.
    handle: () => answer as z.input<typeof count>
  })
  // Public endpoints never ask the gate.
  registerEndpoints((app = fastify()), undefined as unknown as SessionGate, [e], { checkAnswers })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as { port: number }
  return `http://127.0.0.1:${port}`
}

describe('checkAnswers', () => {
  it('fails a request whose answer breaks the contract', async () => {
    const res = await httpRequest(await serve({ count: 'three' }, true), 'GET', '/api/2/count')
    expect(res.status).toBe(500)
    expect(res.text).toContain('the answer of count breaks its contract at count')
  })

  it('sends an answer that keeps it, and sends anything when off (production)', async () => {
    expect((await httpRequest(await serve({ count: 3 }, true), 'GET', '/api/2/count')).json).toEqual({ count: 3 })
    await app!.close()
    expect((await httpRequest(await serve({ count: 'three' }, false), 'GET', '/count')).json).toEqual({ count: 'three' })
  })
})
