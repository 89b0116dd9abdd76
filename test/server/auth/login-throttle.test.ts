// The login throttle on its own: per (address, user name) locks, their end, and bounded memory under
// a spray that must not free a lock on an account.
import { describe, expect, it } from 'vitest'
import { LoginThrottle } from '../../../src/server/auth/login-throttle'

/** A throttle on a clock the test moves; starts at the test's own time. */
function throttleAt(options: { maxEntries?: number } = {}) {
  const clock = { sec: Date.now() / 1000 }
  return { clock, throttle: new LoginThrottle({ now: () => clock.sec, ...options }) }
}

function fail(throttle: LoginThrottle, address: string, user: string, times: number, account = true): void {
  for (let i = 0; i < times; i++) throttle.failed(address, user, account)
}

describe('LoginThrottle', () => {
  it('locks a user name from one address after 5 failures, and nobody else', () => {
    const { throttle } = throttleAt()
    fail(throttle, '10.0.0.9', 'admin', 4)
    expect(throttle.retryAfter('10.0.0.9', 'admin')).toBe(0)
    fail(throttle, '10.0.0.9', 'admin', 1)
    expect(throttle.retryAfter('10.0.0.9', 'admin')).toBe(300)
    expect(throttle.retryAfter('10.0.0.9', 'monit')).toBe(0) // another user behind the same NAT
    expect(throttle.retryAfter('10.0.0.5', 'admin')).toBe(0) // the same user from elsewhere
  })

  it('counts names exactly as the user table compares them', () => {
    const { throttle } = throttleAt()
    fail(throttle, '10.0.0.9', 'admin', 5)
    expect(throttle.retryAfter('10.0.0.9', 'Admin')).toBe(0)
    expect(throttle.retryAfter('10.0.0.9', 'admin ')).toBe(0)
  })

  it('lets the pair in again once the window of its first failure has passed, with a fresh count', () => {
    const { clock, throttle } = throttleAt()
    fail(throttle, '10.0.0.9', 'admin', 1)
    clock.sec += 100
    fail(throttle, '10.0.0.9', 'admin', 4)
    expect(throttle.retryAfter('10.0.0.9', 'admin')).toBe(200)
    clock.sec += 199.5
    expect(throttle.retryAfter('10.0.0.9', 'admin')).toBe(1)
    clock.sec += 0.5
    expect(throttle.retryAfter('10.0.0.9', 'admin')).toBe(0)
    fail(throttle, '10.0.0.9', 'admin', 4)
    expect(throttle.retryAfter('10.0.0.9', 'admin')).toBe(0)
    expect(throttle.size).toBe(1)
  })

  it('forgets failures spread wider than the window', () => {
    const { clock, throttle } = throttleAt()
    for (let i = 0; i < 10; i++) {
      fail(throttle, '10.0.0.9', 'admin', 1)
      clock.sec += 61
    }
    expect(throttle.retryAfter('10.0.0.9', 'admin')).toBe(0)
  })

  it('a success clears the count of that pair only', () => {
    const { throttle } = throttleAt()
    fail(throttle, '10.0.0.9', 'admin', 4)
    fail(throttle, '10.0.0.9', 'monit', 4)
    throttle.succeeded('10.0.0.9', 'admin')
    fail(throttle, '10.0.0.9', 'admin', 1)
    fail(throttle, '10.0.0.9', 'monit', 1)
    expect(throttle.retryAfter('10.0.0.9', 'admin')).toBe(0)
    expect(throttle.retryAfter('10.0.0.9', 'monit')).toBe(300)
  })

  it('keeps a lock on an account through a spray of 100,000 names and addresses, in bounded memory', () => {
    const { clock, throttle } = throttleAt()
    fail(throttle, '10.0.0.9', 'admin', 5)
    for (let i = 0; i < 100_000; i++) {
      // Unknown names from the attacker's address, locked too, and single failures from everywhere.
      fail(throttle, '10.0.0.9', `name${i}`, i % 2 === 0 ? 5 : 1, false)
      fail(throttle, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 'admin', 1)
      if (i % 1000 === 0) clock.sec += 1 // 100 s in all: still inside the window
    }
    expect(throttle.size).toBeLessThanOrEqual(10_000)
    expect(throttle.retryAfter('10.0.0.9', 'admin')).toBeGreaterThan(0)
  })

  it('under a spray of locks on accounts from more addresses than it holds, drops the oldest lock first', () => {
    const { throttle } = throttleAt({ maxEntries: 100 })
    for (let i = 0; i < 150; i++) fail(throttle, `10.0.0.${i}`, 'admin', 5)
    expect(throttle.size).toBe(100)
    expect(throttle.retryAfter('10.0.0.49', 'admin')).toBe(0)
    expect(throttle.retryAfter('10.0.0.50', 'admin')).toBe(300)
    expect(throttle.retryAfter('10.0.0.149', 'admin')).toBe(300)
  })

  it('stays exact through a churn of failures and successes (entries removed out of age order)', () => {
    const { throttle } = throttleAt({ maxEntries: 100 })
    fail(throttle, '10.0.0.9', 'admin', 5)
    for (let i = 0; i < 10_000; i++) {
      fail(throttle, `10.1.0.${i % 50}`, `user${i}`, 1)
      throttle.succeeded(`10.1.0.${i % 50}`, `user${i}`)
    }
    expect(throttle.size).toBe(1)
    for (let i = 0; i < 150; i++) fail(throttle, `10.2.0.${i}`, 'monit', 1)
    expect(throttle.size).toBe(100)
    expect(throttle.retryAfter('10.0.0.9', 'admin')).toBe(300)
  })

  it('makes room from expired entries before dropping a live one', () => {
    const { clock, throttle } = throttleAt({ maxEntries: 10 })
    for (let i = 0; i < 9; i++) fail(throttle, `10.0.0.${i}`, 'admin', 1)
    fail(throttle, '10.0.0.99', 'admin', 5)
    clock.sec += 301
    fail(throttle, '10.0.0.100', 'admin', 5)
    expect(throttle.size).toBe(1)
    expect(throttle.retryAfter('10.0.0.100', 'admin')).toBe(300)
  })
})
