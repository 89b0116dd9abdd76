// settings/get|update over real HTTP (administrators only), the session timeout taking effect, and the
// listening port's precedence: --port > OVERSEER_PORT > the stored setting > 8080.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../../src/server/config'
import { silentLogger } from '../../src/server/log'
import { startServer } from '../../src/server/server'
import { type ApiClient, errorBody, loginAs } from '../support/api-client'
import { databaseFor } from '../support/test-database'
import { startTestServer, type TestServer } from '../support/in-process-server'
import { freePort } from '../support/ports'
import { addUser } from '../support/users'

let server: TestServer
let admin: ApiClient
beforeAll(async () => {
  server = await startTestServer()
  admin = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
})
afterAll(() => server.stopAndClean())

const update = async (client: ApiClient, params: Record<string, string | number>) =>
  client.post('/api/2/settings/update', params, { CSRFToken: await client.csrfToken() })

describe('settings/get and settings/update', () => {
  it('answers the defaults: no stored port (8080), 1800 s sessions, the documented retention', async () => {
    const res = await admin.get('/api/2/settings/get')
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      port: null,
      defaultport: 8080,
      listeningport: server.port,
      urls: [`http://127.0.0.1:${server.port}`],
      sessiontimeout: 1800,
      retention: { raw: 86400, minute: 14 * 86400, hour: 365 * 86400, day: 5 * 365 * 86400 },
      eventretention: 365 * 86400,
      auditretention: 365 * 86400,
      forecasthorizon: 72 * 3600,
      limits: {
        eventretention: { min: 86400, max: 20 * 365 * 86400 },
        auditretention: { min: 86400, max: 20 * 365 * 86400 },
        forecasthorizon: { min: 3600, max: 365 * 86400 }
      }
    })
  })

  it('stores each setting and answers the new values', async () => {
    const res = await update(admin, {
      port: 9123,
      sessiontimeout: 3600,
      eventretention: 90 * 86400,
      auditretention: 30 * 86400,
      forecasthorizon: 24 * 3600,
      retentionraw: 2 * 86400,
      retentionhour: 400 * 86400
    })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      port: 9123,
      listeningport: server.port,
      sessiontimeout: 3600,
      eventretention: 90 * 86400,
      auditretention: 30 * 86400,
      forecasthorizon: 24 * 3600,
      retention: { raw: 2 * 86400, hour: 400 * 86400 }
    })
    expect((await admin.get('/api/2/settings/get')).json).toMatchObject({ port: 9123, sessiontimeout: 3600 })
  })

  it.each([
    [{ port: 0 }, "invalid argument 'port': expected a whole number from 1 to 65535"],
    [{ port: 70000 }, "invalid argument 'port': expected a whole number from 1 to 65535"],
    [{ port: 'http' }, "invalid argument 'port': expected a whole number"],
    [{ sessiontimeout: 59 }, "invalid argument 'sessiontimeout': expected a whole number from 60 to 2592000"],
    [{ eventretention: 3600 }, "invalid argument 'eventretention': expected a whole number from 86400 to 630720000"],
    [{ auditretention: 21 * 365 * 86400 }, "invalid argument 'auditretention': expected a whole number from 86400 to 630720000"],
    [{ forecasthorizon: 60 }, "invalid argument 'forecasthorizon': expected a whole number from 3600 to 31536000"],
    [{ retentionraw: 60 }, "invalid argument 'retentionraw': raw retention must be at least 7200 seconds"],
    [
      { retentionday: 86400 * 100, retentionhour: 86400 * 200 },
      "invalid argument 'retentionday': day retention must not be shorter than hour retention"
    ]
  ])('refuses %j with a 400 naming the argument, storing nothing', async (params, error) => {
    const before = (await admin.get('/api/2/settings/get')).json
    const res = await update(admin, { sessiontimeout: 7200, ...params })
    expect(res.status).toBe(400)
    expect(res.json).toEqual(errorBody(error))
    expect((await admin.get('/api/2/settings/get')).json).toEqual(before)
  })

  it('needs the CSRF token and administrator rights', async () => {
    expect((await admin.post('/api/2/settings/update', { sessiontimeout: 600 })).json).toEqual({ error: 'Invalid CSRF token' })
    addUser(server.store, { uname: 'nobody', password: 'nobody-pw', roleIds: [] })
    const user = await loginAs(server.baseUrl, 'nobody', 'nobody-pw')
    expect((await user.get('/api/2/settings/get')).status).toBe(403)
  })
})

describe('the session timeout setting', () => {
  it('applies at once: a session idle longer than the new timeout is over', async () => {
    const user = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    expect((await update(admin, { sessiontimeout: 120 })).status).toBe(200)
    const sessionId = user.cookie!.split('=')[1]
    const idleFor = (seconds: number) =>
      server.store.sql.plain
        .prepare('UPDATE session SET last_access = ? WHERE id = ?')
        .run(Math.floor(Date.now() / 1000) - seconds, sessionId)
    idleFor(100)
    expect((await user.get('/api/2/profile/get')).status).toBe(200)
    expect((await user.get('/api/2/profile/get')).headers['content-type']).toContain('application/json')
    idleFor(130)
    expect((await user.get('/api/2/profile/get')).headers['content-type']).toBe('text/html')
    expect((await update(admin, { sessiontimeout: 1800 })).status).toBe(200)
  })

  it('falls back to 1800 s when the stored value is unusable', async () => {
    server.store.sql.plain
      .prepare("INSERT INTO setting (key, value) VALUES ('session.timeout', 'soon') ON CONFLICT (key) DO UPDATE SET value = excluded.value")
      .run()
    expect((await admin.get('/api/2/settings/get')).json).toMatchObject({ sessiontimeout: 1800 })
    const user = await loginAs(server.baseUrl, 'admin', 'adminsecret')
    server.store.sql.plain
      .prepare('UPDATE session SET last_access = ? WHERE id = ?')
      .run(Math.floor(Date.now() / 1000) - 1700, user.cookie!.split('=')[1])
    expect((await user.get('/api/2/profile/get')).headers['content-type']).toContain('application/json')
  })
})

describe('the listening port: flag > environment > stored setting > default', () => {
  it('parses who chose the port', () => {
    expect(parseConfig(['--port', '9100'], { OVERSEER_PORT: '9000' })).toMatchObject({ port: 9100, portChosen: true })
    expect(parseConfig([], { OVERSEER_PORT: '9000' })).toMatchObject({ port: 9000, portChosen: true })
    expect(parseConfig([], {})).toMatchObject({ port: 8080, portChosen: false })
  })

  it('a restarted server listens on the stored port unless a flag or the environment chose one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'overseer-port-'))
    const base = {
      host: '127.0.0.1',
      dataDir,
      database: databaseFor(dataDir),
      log: silentLogger,
      initAdmin: { user: 'admin', password: 'adminsecret' }
    }
    try {
      const first = await startServer({ ...base, port: 0 })
      const stored = await freePort()
      const client = await loginAs(`http://127.0.0.1:${first.port}`, 'admin', 'adminsecret')
      expect((await client.post('/api/2/settings/update', { port: stored })).json).toMatchObject({
        port: stored,
        listeningport: first.port
      })
      await first.close()

      // Neither flag nor variable (the default stands in config): the stored port wins.
      const second = await startServer({ ...base, port: 8080, portChosen: false })
      expect(second.port).toBe(stored)
      await second.close()
      // Chosen by flag or environment (port 0: any free port): the stored one is ignored.
      const third = await startServer({ ...base, port: 0, portChosen: true })
      expect(third.port).not.toBe(stored)
      await third.close()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
