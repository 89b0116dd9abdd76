// A "PostgreSQL server" that accepts connections and never answers, as a host dropping packets after the
// handshake would: in a process of its own, since the test's thread waits on its statements.
import { fork } from 'node:child_process'
import { freePort } from './ports'

export interface SilentServer {
  port: number
  /** Connections it accepted so far. */
  connections(): number
  stop(): void
}

export async function startSilentServer(): Promise<SilentServer> {
  const port = await freePort()
  const script = `require('net').createServer(() => process.send('connection')).listen(${port}, '127.0.0.1', () => process.send('listening'))`
  const child = fork('-e', [script], { execArgv: [], stdio: ['ignore', 'ignore', 'ignore', 'ipc'] })
  let connections = 0
  child.on('message', (m) => m === 'connection' && connections++)
  await new Promise((done) => child.once('message', done))
  return { port, connections: () => connections, stop: () => child.kill() }
}
