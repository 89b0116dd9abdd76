// What the log says at start while no user exists: where to finish setup, or how when no browser here can.
import { describe, expect, it } from 'vitest'
import { firstRunHint } from '../../../src/server/http/setup'

describe('firstRunHint', () => {
  it.each([
    ['0.0.0.0', 'http://127.0.0.1:8080/'],
    ['::', 'http://127.0.0.1:8080/'],
    ['127.0.0.1', 'http://127.0.0.1:8080/'],
    ['localhost', 'http://localhost:8080/'],
    ['::1', 'http://[::1]:8080/']
  ])('listening on %s: open %s in a browser on this machine', (host, url) => {
    expect(firstRunHint(host, 8080, 'http')).toBe(
      `no user exists yet: open ${url} in a browser on this machine to create the administrator and the agents' account (or restart with --init-admin USER:PASSWORD --init-collector USER:PASSWORD)`
    )
  })

  it('says https when the server serves it', () => {
    expect(firstRunHint('0.0.0.0', 8443, 'https')).toContain('open https://127.0.0.1:8443/ ')
  })

  it('names the flags when the server listens on no loopback address (setup only answers there)', () => {
    expect(firstRunHint('192.168.1.20', 8080, 'http')).toBe(
      "no user exists yet, and first-run setup only answers on this machine's loopback address: restart with --init-admin USER:PASSWORD --init-collector USER:PASSWORD (or --host 127.0.0.1 and open it in a browser here)"
    )
  })
})
