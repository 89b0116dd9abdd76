// Loopback ports the OS considers free, for what a test starts that cannot take port 0 itself (Monit's
// httpd, prosody, a PostgreSQL cluster, a port stored for the next start).
import net from 'node:net'

/** `count` distinct free ports: all are held open together, then released. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer()
          server.once('error', reject)
          server.listen(0, '127.0.0.1', () => resolve(server))
        })
    )
  )
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port)
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))))
  return ports
}

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]
}
