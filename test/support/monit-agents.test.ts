// Runs real Monit agents against the fake collector, to check the harness and its control-file template.
import fs from 'node:fs'
import http from 'node:http'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startFakeCollector, type FakeCollector } from './fake-collector'
import { startAgents, type AgentFleet, type RunningAgent } from './monit-agents'

let collector: FakeCollector
let fleet: AgentFleet | undefined

beforeEach(async () => {
  collector = await startFakeCollector({ status: 200, serverHeader: 'mmonit/3.7.0' })
})

afterEach(async () => {
  await fleet?.shutdown()
  fleet = undefined
  await collector.close()
})

async function start(count: number, withoutCredentials = false): Promise<AgentFleet> {
  fleet = await startAgents({ collectorUrl: collector.url('monit', 'secret1'), count, withoutCredentials })
  return fleet
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return false
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

function runningSleeper(f: AgentFleet, agent: RunningAgent): number {
  const pid = f.sleeperPid(agent)
  if (pid === undefined) throw new Error(`${agent.name}: sleeper not running`)
  return pid
}

function bodies(agent: RunningAgent): string[] {
  return collector.from(agent.id).map((r) => r.body)
}

const waitOpts = { timeout: 10_000, interval: 100 }

describe('monit agent harness', () => {
  it('agents register with start event and credentials, then switch to gzip', { timeout: 30_000 }, async () => {
    const { agents } = await start(2)
    await vi.waitFor(() => {
      for (const a of agents) expect(collector.from(a.id).length).toBeGreaterThanOrEqual(3)
    }, waitOpts)

    for (const a of agents) {
      const [first, ...later] = collector.from(a.id)
      expect(first.method).toBe('POST')
      expect(first.path).toBe('/collector')
      expect(first.headers['user-agent']).toBe('Monit/5.33.0')
      expect(first.headers.authorization).toBe(`Basic ${Buffer.from('monit:secret1').toString('base64')}`)
      expect(first.headers['content-encoding']).toBeUndefined()
      expect(first.body).toContain('Monit 5.33.0 started')
      expect(first.body).toContain(`<httpd><address>127.0.0.1</address><port>${a.httpdPort}</port>`)
      expect(first.body).toContain('<credentials><username>admin</username><password>adminpw</password>')
      for (const r of later) {
        expect(r.headers['content-encoding']).toBe('gzip')
        expect(r.body).toContain(`<monit id="${a.id}"`)
      }
    }
  })

  it('kill sends nothing more; stop ends with the stopped event', { timeout: 30_000 }, async () => {
    const f = await start(2)
    const [crashed, stopped] = f.agents
    await vi.waitFor(() => {
      for (const a of f.agents) expect(collector.from(a.id).length).toBeGreaterThanOrEqual(2)
    }, waitOpts)

    await f.kill(crashed)
    const killedAt = Date.now()
    expect(gone(crashed.pid)).toBe(true)
    // Proves absence: meanwhile the other agent, on the same 1 s cycle, has posted twice more.
    const later = (a: RunningAgent) => collector.from(a.id).filter((r) => r.receivedAt > killedAt + 1_000)
    await vi.waitFor(() => expect(later(stopped).length).toBeGreaterThanOrEqual(2), waitOpts)
    expect(later(crashed)).toEqual([])

    await f.stop(stopped)
    expect(gone(stopped.pid)).toBe(true)
    await vi.waitFor(() => expect(bodies(stopped).at(-1)).toContain('Monit 5.33.0 stopped'), waitOpts)
  })

  it('shutdown leaves no agent or sleeper process and removes the directories', { timeout: 30_000 }, async () => {
    const f = await start(2)
    const { agents } = f
    const sleepers = await vi.waitFor(() => agents.map((a) => runningSleeper(f, a)), waitOpts)
    const pids = [...agents.map((a) => a.pid), ...sleepers]

    await f.shutdown()
    await f.shutdown()
    expect(pids.filter((pid) => !gone(pid))).toEqual([])
    expect(agents.filter((a) => fs.existsSync(a.dir))).toEqual([])
  })

  it('POST /_doaction with the double-submit token gives 302 and stops the sleeper', { timeout: 30_000 }, async () => {
    const f = await start(1)
    const [agent] = f.agents
    await vi.waitFor(() => runningSleeper(f, agent), waitOpts)

    const token = 'c0ffee00c0ffee00c0ffee00c0ffee00'
    const body = `securitytoken=${token}&service=sleeper&action=stop`
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: agent.httpdPort,
          method: 'POST',
          path: '/_doaction',
          agent: false,
          auth: `${agent.httpdUser}:${agent.httpdPassword}`,
          headers: {
            Cookie: `securitytoken=${token}`,
            'Content-Type': 'application/x-www-form-urlencoded',
            'Content-Length': Buffer.byteLength(body)
          }
        },
        resolve
      )
      req.on('error', reject)
      req.end(body)
    })
    res.resume()
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toBe('/_doaction')

    await vi.waitFor(() => expect(bodies(agent).some((b) => b.includes('stop action done'))).toBe(true), waitOpts)
    expect(f.sleeperPid(agent)).toBeUndefined()
  })

  it('reload, restart, sleeper crash and file change produce their events', { timeout: 30_000 }, async () => {
    const f = await start(1, true)
    const [agent] = f.agents
    const firstSleeper = await vi.waitFor(() => runningSleeper(f, agent), waitOpts)
    expect(bodies(agent)[0]).toContain('<httpd>')
    expect(bodies(agent)[0]).not.toContain('<credentials>')

    // Touched once the agent has recorded the file's checksum, which it reports from then on.
    const checksummed = new RegExp(`<service name="f${agent.index}">(?:(?!</service>)[\\s\\S])*<checksum `)
    await vi.waitFor(() => expect(bodies(agent).some((b) => checksummed.test(b))).toBe(true), waitOpts)
    f.touchWatched(agent)
    await vi.waitFor(() => expect(bodies(agent).some((b) => b.includes('checksum changed to'))).toBe(true), waitOpts)

    // The start-up cycle already sent one "not running": the sleeper is only started by that cycle.
    const notRunning = (): number => bodies(agent).filter((b) => b.includes('process is not running')).length
    const before = notRunning()
    f.killSleeper(agent)
    await vi.waitFor(() => expect(gone(firstSleeper)).toBe(true), waitOpts)
    await vi.waitFor(() => expect(notRunning()).toBe(before + 1), waitOpts)
    expect(bodies(agent).some((b) => b.includes('is a zombie'))).toBe(false)
    await vi.waitFor(() => expect(runningSleeper(f, agent)).not.toBe(firstSleeper), waitOpts)

    const pid = agent.pid
    await f.reload(agent)
    await vi.waitFor(() => expect(bodies(agent).some((b) => b.includes('Monit reloaded'))).toBe(true), waitOpts)
    expect(agent.pid).toBe(pid)

    await f.restart(agent)
    expect(gone(pid)).toBe(true)
    expect(agent.pid).not.toBe(pid)
    await vi.waitFor(() => expect(bodies(agent).filter((b) => b.includes('Monit 5.33.0 started')).length).toBe(2), waitOpts)
  })
})
