// Reverse proxies whose X-Forwarded-For, -Proto and -Host headers are believed (--trusted-proxy). Anyone
// can send those headers: read from any other address they would let a client pick the address the login
// throttle counts, or pass for HTTPS. Fastify's request.ip, .protocol and .host use the same test (http/app.ts),
// and the collector, served ahead of fastify, asks this class directly.
import type { IncomingMessage } from 'node:http'
import { BlockList, isIP } from 'node:net'
import type { TLSSocket } from 'node:tls'

export class TrustedProxies {
  private readonly list = new BlockList()

  /** `entries`: addresses (127.0.0.1, ::1) or networks (10.0.0.0/8); checked by the caller (config.ts). */
  constructor(readonly entries: readonly string[] = []) {
    for (const entry of entries) {
      const [address, bits] = entry.split('/')
      const type = isIP(address) === 6 ? 'ipv6' : 'ipv4'
      if (bits === undefined) this.list.addAddress(address, type)
      else this.list.addSubnet(address, Number(bits), type)
    }
  }

  /** Fastify's trustProxy function: `hop` does not matter, only who the hop is. */
  readonly trusts = (address: string | undefined): boolean => {
    if (!address || this.entries.length === 0) return false
    const plain = unmapped(address)
    const type = isIP(plain) === 6 ? 'ipv6' : 'ipv4'
    return isIP(plain) !== 0 && this.list.check(plain, type)
  }

  /**
   * The client's address as fastify's request.ip gives it: X-Forwarded-For is walked from its end while
   * each hop is a trusted proxy; the first address not trusted is the client.
   */
  clientAddress(request: IncomingMessage): string {
    let address = request.socket.remoteAddress ?? ''
    const forwarded = headerValue(request, 'x-forwarded-for')
    if (!forwarded) return address
    const hops = forwarded.split(',').map((hop) => hop.trim())
    while (this.trusts(address) && hops.length > 0) address = hops.pop()!
    return address
  }

  /** Whether the client reached us over HTTPS: our own TLS, or a trusted proxy's X-Forwarded-Proto. */
  isHttps(request: IncomingMessage): boolean {
    if ((request.socket as TLSSocket).encrypted) return true
    const proto = headerValue(request, 'x-forwarded-proto')
    return proto !== undefined && this.trusts(request.socket.remoteAddress) && lastEntry(proto) === 'https'
  }
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name]
  return Array.isArray(value) ? value.join(',') : value
}

/** Fastify reads the last entry of a repeated X-Forwarded-Proto: so does this. */
function lastEntry(value: string): string {
  return value.slice(value.lastIndexOf(',') + 1).trim()
}

/** An IPv4 client of a dual-stack listener shows as ::ffff:a.b.c.d; the list holds it as a.b.c.d. */
function unmapped(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address
}
