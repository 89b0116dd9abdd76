import { beforeEach, describe, expect, it, vi } from 'vitest'

// The module keeps one page's state: each test loads a fresh copy.
let connection: typeof import('../../../src/renderer/live/connection')
beforeEach(async () => {
  vi.resetModules()
  connection = await import('../../../src/renderer/live/connection')
})

describe('connection', () => {
  it('keeps the time of the last answer and reports the outage with it', () => {
    const seen: unknown[] = []
    connection.onConnection((c) => seen.push(c))
    connection.serverAnswered(1_000)
    connection.serverAnswered(2_000)
    connection.serverUnreachable()
    connection.serverUnreachable()
    expect(seen).toEqual([{ reachable: true }, { reachable: false, lastGoodAt: 2_000 }])
  })

  it('tells reconnect listeners once, when the server answers after an outage', () => {
    const reconnects = vi.fn()
    connection.onReconnect(reconnects)
    connection.serverAnswered(1_000)
    expect(reconnects).not.toHaveBeenCalled()
    connection.serverUnreachable()
    connection.serverAnswered(3_000)
    connection.serverAnswered(4_000)
    expect(reconnects).toHaveBeenCalledTimes(1)
  })

  it('keeps what the server said when it answers 503, through a broken live stream, until a good answer', () => {
    const seen: unknown[] = []
    const reconnects = vi.fn()
    connection.onReconnect(reconnects)
    connection.serverAnswered(1_000)
    connection.onConnection((c) => seen.push(c))
    const problem = 'the server cannot reach its database (ECONNREFUSED); try again later'
    connection.serverUnavailable(problem)
    connection.serverUnreachable() // the live stream, refused meanwhile
    connection.serverUnavailable(problem)
    connection.serverAnswered(5_000)
    expect(seen).toEqual([
      { reachable: true, lastGoodAt: 1_000 },
      { reachable: false, lastGoodAt: 1_000, problem },
      { reachable: true, lastGoodAt: 5_000 }
    ])
    expect(reconnects).toHaveBeenCalledTimes(1)
  })
})
