// A TLS listener on 127.0.0.1 that stands where an agent should be (a man in the middle, or an agent's
// httpd for client tests): it records what each connection sent after the handshake, and answers a
// complete request with Monit's `200 pong`. Connections are counted from TCP accept: a client that
// closes right after its side of the handshake may leave before the TLS server reports it.
import type { SelfSigned } from './certificates'
import type net from 'node:net'
import tls from 'node:tls'

export interface TlsConnection {
  /** Everything the client sent after the handshake. */
  received: string
  /** Settles when the TCP connection is closed. */
  closed: Promise<void>
}

export interface TlsRecorder {
  port: number
  connections: TlsConnection[]
  close(): Promise<void>
}

const PONG = 'HTTP/1.0 200 OK\r\nServer: monit 5.33.0\r\nContent-Length: 4\r\nConnection: close\r\n\r\npong'

export async function tlsRecorder(certificate: Pick<SelfSigned, 'key' | 'cert'>): Promise<TlsRecorder> {
  const connections: TlsConnection[] = []
  const byClientPort = new Map<number | undefined, TlsConnection>()
  const sockets = new Set<net.Socket>()
  const server = tls.createServer({ key: certificate.key, cert: certificate.cert }, (socket) => {
    const connection = byClientPort.get(socket.remotePort)
    socket.on('data', (chunk: Buffer) => {
      if (connection) connection.received += chunk.toString('latin1')
      if (connection?.received.includes('\r\n\r\n')) socket.end(PONG)
    })
    socket.on('error', () => {})
  })
  server.on('connection', (raw: net.Socket) => {
    sockets.add(raw)
    let markClosed!: () => void
    const connection: TlsConnection = { received: '', closed: new Promise((resolve) => (markClosed = resolve)) }
    connections.push(connection)
    byClientPort.set(raw.remotePort, connection)
    raw.on('close', () => {
      sockets.delete(raw)
      markClosed()
    })
  })
  server.on('tlsClientError', () => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
