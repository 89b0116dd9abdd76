// Pull mode at fleet size (issue 30 §1): the built server (SQLite) reading BENCH_PULL_AGENTS pulled agents
// every 30 s. The agents are Monit httpd stand-ins in this process, on loopback, each serving fixture 02 as
// its own agent (collected now, behind Basic authentication), so that only the pulling is the server's
// CPU. After every agent answered once, the server's CPU (user + system, from /proc) is measured over
// BENCH_PULL_SECONDS; target: under 5 % of one core for 200 agents.
//
// Sizing: BENCH_PULL_AGENTS (200), BENCH_PULL_SECONDS (60), BENCH_MAX_SECONDS (180).
import { once } from 'node:events'
import { mkdtempSync, readFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PulledAgentList } from '../src/shared/api/pulled-agents'
import { loginAs } from '../test/support/api-client'
import { removeDir, startBuiltServer } from '../test/support/built-server'
import { asAgent, fixture } from '../test/support/fixtures'
import { Deadline, envInt, fixed, int, printRows, verdict, type Benchmark } from './support'

const POLL_SEC = 30
const TARGET_SHARE = 0.05
const ADMIN = { user: 'admin', password: 'benchadmin' }
const AGENT_AUTH = `Basic ${Buffer.from('monit:benchpw').toString('base64')}`
/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100

export const pullBenchmark: Benchmark = {
  name: 'pull',
  description: 'pull mode: the server CPU for 200 pulled agents read every 30 s',
  run: runPullBenchmark
}

async function runPullBenchmark(): Promise<void> {
  const count = envInt('BENCH_PULL_AGENTS', 200)
  const seconds = envInt('BENCH_PULL_SECONDS', 60)
  const deadline = new Deadline(envInt('BENCH_MAX_SECONDS', 180))
  const dataDir = mkdtempSync(join(tmpdir(), 'overseer-bench-pull-'))
  const template = fixture('02-status-heartbeat').toString('latin1')
  let served = 0
  const agents = Array.from({ length: count }, (_, i) =>
    http.createServer((req, res) => {
      if (req.headers.authorization !== AGENT_AUTH) return void res.writeHead(401).end()
      served++
      const now = Math.floor(Date.now() / 1000)
      const xml = asAgent(Buffer.from(template, 'latin1'), (0xbe00 + i).toString(16).padStart(32, '0'), `pulled-${i + 1}`)
        .toString('latin1')
        .replace(/<collected_sec>\d+<\/collected_sec>/g, `<collected_sec>${now}</collected_sec>`)
      res.writeHead(200, { 'Content-Type': 'text/xml' }).end(xml)
    })
  )
  const server = await startBuiltServer({ dataDir, args: ['--init-admin', `${ADMIN.user}:${ADMIN.password}`] })
  try {
    for (const a of agents) a.listen(0, '127.0.0.1')
    await Promise.all(agents.map((a) => once(a, 'listening')))
    const admin = await loginAs(server.baseUrl, ADMIN.user, ADMIN.password)
    for (const a of agents) {
      const res = await admin.post('/api/2/admin/pulled/create', {
        url: `http://127.0.0.1:${(a.address() as AddressInfo).port}`,
        username: 'monit',
        password: 'benchpw',
        poll: POLL_SEC
      })
      if (res.status !== 200) throw new Error(`admin/pulled/create answered ${res.status} ${res.text}`)
    }
    for (;;) {
      deadline.check('waiting for every pulled agent to answer once')
      const records = ((await admin.get('/api/2/admin/pulled/list')).json as PulledAgentList).records
      if (records.every((r) => r.answeredat !== null)) break
      await new Promise((r) => setTimeout(r, 500))
    }
    const cpuBefore = processCpuSeconds(server.child.pid!)
    const servedBefore = served
    const started = performance.now()
    while (performance.now() - started < seconds * 1000) {
      deadline.check('measuring')
      await new Promise((r) => setTimeout(r, 1000))
    }
    const wall = (performance.now() - started) / 1000
    const cpu = processCpuSeconds(server.child.pid!) - cpuBefore
    const polls = served - servedBefore
    const share = cpu / wall
    const hosts = ((await admin.get('/api/2/status/hosts/list')).json as { records: unknown[] }).records.length
    console.log(
      `  ${int(count)} pulled agents every ${POLL_SEC} s, measured over ${fixed(wall, 0)} s after each answered once (built server, SQLite)`
    )
    printRows([
      ['polls answered', `${int(polls)} (${fixed(polls / wall, 1)}/s; expected ${fixed(count / POLL_SEC, 1)}/s)`],
      [
        'server CPU',
        `${fixed(cpu, 2)} s: ${fixed(share * 100, 2)} % of one core, ${fixed((cpu / Math.max(1, polls)) * 1000, 2)} ms per poll`
      ],
      ['hosts', int(hosts)]
    ])
    console.log(
      verdict(`${int(count)} pulled agents every ${POLL_SEC} s < 5 % of one core`, share < TARGET_SHARE, `${fixed(share * 100, 2)} %`)
    )
  } finally {
    for (const a of agents) a.close()
    const code = await server.stop()
    if (code !== 0) console.log(`server exited with code ${code}:\n${server.output()}`)
    removeDir(dataDir)
  }
}

/** User + system CPU of a process so far, in seconds (/proc/PID/stat fields 14 and 15). */
function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND
}
