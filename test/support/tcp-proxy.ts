// A TCP proxy in front of a server (PostgreSQL) that can turn into a network black hole: connections are
// still accepted and nothing they send is answered, as a firewall dropping packets or a cut link would do,
// until it is restored and whatever waited flows again. In a process of its own: the test's thread waits
// on statements that go through it.
import { fork, type ChildProcess } from 'node:child_process'
import { freePort } from './ports'

export interface TcpProxy {
  port: number
  /** From now on nothing passes, either way, on open connections or new ones. */
  blackHole(): Promise<void>
  /** Everything that waited passes, and what comes after. */
  restore(): Promise<void>
  stop(): void
}

// The proxy's own script (plain Node, no imports of the test's): each accepted socket is paired with one
// to the target; while the hole lasts, both are paused (what they receive waits in the kernel) and new
// ones wait for their pair.
const SCRIPT = `
const net = require('net')
const [port, targetPort] = process.argv.slice(1).map(Number)
let hole = false
const pairs = new Set()
const waiting = []
function pair(client) {
  const target = net.connect(targetPort, '127.0.0.1')
  const p = { client, target }
  pairs.add(p)
  client.pipe(target); target.pipe(client)
  const end = () => { pairs.delete(p); client.destroy(); target.destroy() }
  client.on('error', end); target.on('error', end); client.on('close', end); target.on('close', end)
}
net.createServer((client) => {
  client.on('error', () => client.destroy())
  if (hole) { client.pause(); waiting.push(client) } else pair(client)
}).listen(port, '127.0.0.1', () => process.send('ready'))
process.on('message', (m) => {
  if (m === 'hole') {
    hole = true
    for (const p of pairs) { p.client.unpipe(p.target); p.target.unpipe(p.client); p.client.pause(); p.target.pause() }
  } else if (m === 'restore') {
    hole = false
    for (const p of pairs) { p.client.pipe(p.target); p.target.pipe(p.client) }
    for (const client of waiting.splice(0)) { pair(client); client.resume() }
  }
  process.send(m)
})
`

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const port = await freePort()
  const child = fork('-e', [SCRIPT, String(port), String(targetPort)], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  await answer(child, 'ready')
  const ask = async (m: string) => {
    child.send(m)
    await answer(child, m)
  }
  return { port, blackHole: () => ask('hole'), restore: () => ask('restore'), stop: () => child.kill() }
}

function answer(child: ChildProcess, expected: string): Promise<void> {
  return new Promise((done, fail) => {
    const onMessage = (m: unknown) => {
      if (m !== expected) return
      child.off('message', onMessage)
      done()
    }
    child.on('message', onMessage)
    child.once('exit', () => fail(new Error('the TCP proxy ended')))
  })
}
