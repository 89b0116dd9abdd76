// Sessions over a real store (SQLite file or PostgreSQL database) on a clock the test moves: the bounds
// that no caller can turn into a lock-out (issue 26), rotation at login, and the sweep of idle sessions.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_ANONYMOUS_SESSIONS, MAX_SESSIONS_PER_USER, SessionService, type Session } from '../../../src/server/auth/sessions'
import { tempStore, type TempStore } from '../../support/temp-store'
import { addUser } from '../../support/users'

const T0 = 1_800_000_000 // s
let t: TempStore
let clock: number
let sessions: SessionService
let alice: number
let bob: number
beforeEach(() => {
  t = tempStore()
  clock = T0
  sessions = new SessionService(
    t.store.sessions,
    () => undefined,
    () => clock
  )
  alice = addUser(t.store, { uname: 'alice', password: 'alice-pw', roleIds: [] })
  bob = addUser(t.store, { uname: 'bob', password: 'bob-pw', roleIds: [] })
})
afterEach(() => t.close())

/** A login as an API client makes it: a fresh session, logged in under the same id, a second later. */
function logIn(userId: number): Session {
  clock++
  return sessions.logIn(sessions.create(), userId, false, false)
}

const live = (s: Session) => sessions.resume(s.id) !== undefined
const countOf = (userId: number | null) =>
  (
    t.store.sql.plain
      .prepare(`SELECT COUNT(*) AS n FROM session WHERE user_id ${userId === null ? 'IS NULL' : '= ?'}`)
      .get(...(userId === null ? [] : [userId])) as { n: number | string }
  ).n

describe('session bounds (issue 26)', () => {
  it('more logins of one account than every cap: each is live, the oldest of that account end, nobody else is touched', () => {
    const bobs = logIn(bob)
    const alices: Session[] = []
    for (let i = 0; i < MAX_ANONYMOUS_SESSIONS + 6; i++) {
      const session = logIn(alice)
      expect(live(session)).toBe(true) // never the one evicted
      alices.push(session)
    }
    expect(Number(countOf(alice))).toBe(MAX_SESSIONS_PER_USER)
    expect(alices.slice(-MAX_SESSIONS_PER_USER).every(live)).toBe(true)
    expect(live(alices[alices.length - MAX_SESSIONS_PER_USER - 1])).toBe(false)
    expect(live(bobs)).toBe(true)
    // And anyone else still logs in.
    expect(live(logIn(bob))).toBe(true)
  })

  it('anonymous sessions evict only the least recently used anonymous ones, never the new one nor a logged-in one', () => {
    const bobs = logIn(bob)
    const first = sessions.create()
    for (let i = 0; i < MAX_ANONYMOUS_SESSIONS + 5; i++) {
      clock++
      const session = sessions.create()
      expect(t.store.sessions.find(session.id)).toBeDefined()
    }
    expect(Number(countOf(null))).toBe(MAX_ANONYMOUS_SESSIONS)
    expect(t.store.sessions.find(first.id)).toBeUndefined()
    expect(live(bobs)).toBe(true)
  })
})

describe('login', () => {
  it('keeps the id for API clients, and logs the session in', () => {
    const anonymous = sessions.create()
    const loggedIn = sessions.logIn(anonymous, alice, true, false)
    expect(loggedIn).toMatchObject({ id: anonymous.id, userId: alice, csrfToken: anonymous.csrfToken, csrfProtection: true })
    expect(sessions.resume(anonymous.id)?.userId).toBe(alice)
  })

  it('rotating, moves the login to a new id and CSRF token and ends the old id', () => {
    const planted = sessions.create()
    const loggedIn = sessions.logIn(planted, alice, true, true)
    expect(loggedIn.id).not.toBe(planted.id)
    expect(loggedIn.csrfToken).not.toBe(planted.csrfToken)
    expect(sessions.resume(loggedIn.id)?.userId).toBe(alice)
    expect(sessions.resume(planted.id)).toBeUndefined()
  })
})

describe('sweep', () => {
  it('ends the sessions idle past the timeout, whoever they belong to, and only those', () => {
    const idle = logIn(alice)
    const anonymousIdle = sessions.create()
    clock += 1000
    const recent = logIn(bob)
    clock += 801 // idle and anonymousIdle: 1802 s idle; recent: 801 s
    expect(sessions.sweepExpired()).toBe(2)
    expect(t.store.sessions.find(idle.id)).toBeUndefined()
    expect(t.store.sessions.find(anonymousIdle.id)).toBeUndefined()
    expect(t.store.sessions.find(recent.id)).toBeDefined()
  })
})
