// The access log (--access-log on) over real HTTP: a line per answered request, the collector's
// included, with the path but no query, header, body or password.
import { afterEach, describe, expect, it } from 'vitest'
import { httpRequest, loginAs } from '../../support/api-client'
import { capturedLog, type CapturedLog } from '../../support/captured-log'
import { postCollector } from '../../support/collector-client'
import { fixture } from '../../support/fixtures'
import { startTestServer, type TestServer } from '../../support/in-process-server'
import { waitFor } from '../../support/wait'

let server: TestServer | undefined
afterEach(async () => {
  await server?.stopAndClean()
  server = undefined
})

const accessLines = (captured: CapturedLog) => captured.out().filter((l) => / INFO {2}access /.test(l))

describe('the access log', () => {
  it('logs each answered request on one line: client, method, path without its query, status, time', async () => {
    const captured = capturedLog()
    server = await startTestServer({ log: captured.log, accessLog: true })
    expect((await httpRequest(server.baseUrl, 'GET', '/health?token=t0ken')).status).toBe(200)
    expect((await postCollector(server.baseUrl, fixture('02-status-heartbeat'), { auth: 'monit:collect0r' })).status).toBe(200)
    expect((await httpRequest(server.baseUrl, 'POST', '/nowhere')).status).toBe(404)
    const admin = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    expect((await admin.get('/api/2/status/hosts/list')).status).toBe(200)

    const lines = await waitFor('six access lines', () => accessLines(captured).length >= 6 && accessLines(captured))
    expect(lines.map((l) => l.replace(/^\S+ INFO {2}access /, '').replace(/ \d+ ms$/, ' N ms'))).toEqual([
      '127.0.0.1 GET /health 200 N ms',
      '127.0.0.1 POST /collector 200 N ms',
      '127.0.0.1 POST /nowhere 404 N ms',
      '127.0.0.1 GET /index.csp 200 N ms', // the login page first, for a session cookie
      '127.0.0.1 POST /z_security_check 302 N ms',
      '127.0.0.1 GET /api/2/status/hosts/list 200 N ms'
    ])
    expect(captured.out().join('\n')).not.toMatch(/t0ken|collect0r|adminsecret|zsessionid|Basic /)
  })

  it('is off unless asked for', async () => {
    const captured = capturedLog()
    server = await startTestServer({ log: captured.log })
    expect((await httpRequest(server.baseUrl, 'GET', '/health')).status).toBe(200)
    // Closed, the server has ended every response: a line would have been written by now.
    await server.stopAndClean()
    server = undefined
    expect(accessLines(captured)).toEqual([])
  })
})
