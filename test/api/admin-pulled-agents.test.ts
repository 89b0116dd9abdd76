// admin/pulled/* over real HTTP (issue 30 §1): adding, listing and removing the agents the server reads from
// their httpd. The password is sealed at rest, never answered and kept out of the audit log; a bad URL or
// poll is a 400 naming it; an agent added twice a 409; only administrators, with the CSRF token.
import { describe, expect, it } from 'vitest'
import type { PulledAgent, PulledAgentList } from '../../src/shared/api/pulled-agents'
import { errorBody, loginAs, type ApiClient, type Params } from '../support/api-client'
import type { TestServer } from '../support/in-process-server'
import { serverForEachTest } from '../support/server-per-test'
import { addUser } from '../support/users'

let server: TestServer
let admin: ApiClient

serverForEachTest(async (started) => {
  ;({ server, admin } = started)
})

const create = (params: Params, client = admin) => client.post('/api/2/admin/pulled/create', params)
const list = async () => ((await admin.get('/api/2/admin/pulled/list')).json as PulledAgentList).records

describe('admin/pulled/create and list', () => {
  it('adds an agent by its URL and credentials; the list never answers the password, and the store keeps it sealed', async () => {
    // Port 9 (discard) on loopback: nothing answers, so the poll's error shows in the list.
    const res = await create({ url: 'https://127.0.0.1:9', username: 'admin', password: 'monit-secret', poll: 10 })
    expect(res.status, res.text).toBe(200)
    const id = (res.json as { id: number }).id
    const expected: Partial<PulledAgent> = {
      id,
      url: 'https://127.0.0.1:9',
      username: 'admin',
      certificate: '',
      poll: 10,
      agentid: null,
      hostid: null
    }
    expect((await list())[0]).toMatchObject(expected)
    expect(JSON.stringify(await list())).not.toContain('monit-secret')
    const stored = server.store.sql.rows<{ password: string }>('SELECT password FROM pulled_agent')[0].password
    expect(stored).not.toContain('monit-secret')
    expect(
      server.store.sql.rows<{ detail: string }>("SELECT detail FROM audit_log WHERE action = 'pulled-agent.create'")[0].detail
    ).not.toContain('monit-secret')
  })

  it('takes the port 2812 by default, IPv6 addresses, and the default poll of 30 s', async () => {
    expect((await create({ url: 'http://[::1]' })).status).toBe(200)
    expect((await list())[0]).toMatchObject({ url: 'http://[::1]:2812', username: '', poll: 30 })
  })

  it.each([
    [{ url: 'ftp://10.0.0.5' }, "invalid argument 'url': expected http:// or https://"],
    [{ url: 'not a url' }, "invalid argument 'url': expected an http:// or https:// URL of the agent, e.g. https://10.0.0.5:2812"],
    [{ url: 'http://admin:pw@10.0.0.5:2812' }, "invalid argument 'url': give the credentials as username and password, not in the URL"],
    [{ url: 'http://10.0.0.5:2812/_status' }, "invalid argument 'url': expected the agent's address only, without a path"],
    [{ url: 'http://10.0.0.5', poll: 1 }, "invalid argument 'poll': expected seconds from 2 to 3600"],
    [{}, "invalid argument 'url': is required"]
  ])('refuses %j with a 400 naming the argument, storing nothing', async (params, error) => {
    const res = await create(params)
    expect(res.status).toBe(400)
    expect(res.json).toEqual(errorBody(error))
    expect(await list()).toEqual([])
  })

  it('the same address and port twice: 409, the first kept', async () => {
    expect((await create({ url: 'http://127.0.0.2:9', password: 'one' })).status).toBe(200)
    const again = await create({ url: 'http://127.0.0.2:9', password: 'two' })
    expect(again.status).toBe(409)
    expect(again.json).toEqual({ error: 'an agent at http://127.0.0.2:9 is pulled already' })
    expect(await list()).toHaveLength(1)
  })
})

describe('admin/pulled/delete', () => {
  it('stops pulling the agent; an unknown id is a 404', async () => {
    const id = ((await create({ url: 'http://127.0.0.3:9' })).json as { id: number }).id
    expect((await admin.post('/api/2/admin/pulled/delete', { id })).status).toBe(200)
    expect(await list()).toEqual([])
    const again = await admin.post('/api/2/admin/pulled/delete', { id })
    expect(again.status).toBe(404)
    expect(again.json).toEqual({ error: `no pulled agent with id ${id}` })
  })
})

describe('admin/pulled: who may', () => {
  it('only administrators, and a change needs the CSRF token', async () => {
    addUser(server.store, { uname: 'viewer', password: 'viewer-pw', roleIds: [] })
    const user = await loginAs(server.baseUrl, 'viewer', 'viewer-pw')
    expect((await user.get('/api/2/admin/pulled/list')).status).toBe(403)
    expect((await create({ url: 'http://127.0.0.4:9' }, user)).status).toBe(403)
    const withCsrf = await loginAs(server.baseUrl, 'admin', 'adminsecret', { csrf: 'on' })
    expect((await withCsrf.post('/api/2/admin/pulled/create', { url: 'http://127.0.0.4:9' })).json).toEqual({ error: 'Invalid CSRF token' })
    expect(await list()).toEqual([])
  })
})
