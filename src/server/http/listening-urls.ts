// The URLs the server answers on, one per address: what agents on the LAN can be told to report to.
import { networkInterfaces } from 'node:os'
import { Server as TlsServer } from 'node:tls'

/** A wildcard address listens on every interface: name each, so users know what agents can reach. */
export function listeningUrls(host: string, port: number, scheme: 'http' | 'https' = 'http'): string[] {
  const wildcard = host === '0.0.0.0' || host === '::'
  const hosts = wildcard
    ? Object.values(networkInterfaces())
        .flat()
        .filter((i) => i && (host === '::' || i.family === 'IPv4'))
        .map((i) => (i!.family === 'IPv6' ? `[${i!.address}]` : i!.address))
    : [host.includes(':') ? `[${host}]` : host]
  return hosts.map((h) => `${scheme}://${h}:${port}`)
}

/** The listening URLs of the server that received a request. */
export function urlsOfServer(server: { address(): unknown }): string[] {
  const address = server.address()
  if (!address || typeof address !== 'object') return []
  const { address: host, port } = address as { address: string; port: number }
  return listeningUrls(host, port, server instanceof TlsServer ? 'https' : 'http')
}
