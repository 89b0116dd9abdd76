// Which store errors are "the database cannot be written right now" (a 503 that keeps what is stored)
// rather than a bug (a 500): SQLite's full disk and I/O errors, PostgreSQL out of reach, full, out of
// resources, read-only or busy (a lock wait or a statement given up); a socket error from anything but the
// database connection is not one of them.
import { describe, expect, it } from 'vitest'
import { PostgresError } from '../../../src/server/store/postgres/sync-connection'
import {
  databaseBusy,
  databaseUnreachable,
  storageFailureCode,
  storageFailureMessage,
  storageRetryAfterSec
} from '../../../src/server/store/storage-errors'

const coded = (code: string) => Object.assign(new Error(code), { code })

describe('storage failures', () => {
  it.each([
    [coded('SQLITE_FULL'), 'SQLITE_FULL', false],
    [coded('SQLITE_IOERR_WRITE'), 'SQLITE_IOERR_WRITE', false],
    [new PostgresError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), 'ECONNREFUSED', true],
    [new PostgresError('PostgreSQL did not answer within 70 s', 'ETIMEDOUT'), 'ETIMEDOUT', true],
    [new PostgresError('terminating connection due to administrator command', '57P01'), '57P01', true],
    [new PostgresError('the database system is starting up', '57P03'), '57P03', true],
    [new PostgresError('connection failure', '08006'), '08006', true],
    [new PostgresError('could not extend file', '53100'), '53100', false],
    [new PostgresError('sorry, too many clients already', '53300'), '53300', false],
    [new PostgresError('cannot execute INSERT in a read-only transaction', '25006'), '25006', false],
    [new PostgresError('canceling statement due to lock timeout', '55P03'), '55P03', false],
    [new PostgresError('canceling statement due to statement timeout', '57014'), '57014', false]
  ])('%s is a storage failure (%s), out of reach: %s', (err, code, unreachable) => {
    expect(storageFailureCode(err)).toBe(code)
    expect(databaseUnreachable(code)).toBe(unreachable)
  })

  it('tells a busy database from the rest: a short Retry-After', () => {
    expect(['55P03', '57014'].map(databaseBusy)).toEqual([true, true])
    expect(['ECONNREFUSED', '53100', 'SQLITE_FULL', '40P01'].map(databaseBusy)).toEqual([false, false, false, false])
    expect(storageRetryAfterSec('55P03')).toBe(5)
    expect(storageRetryAfterSec('ECONNREFUSED')).toBe(60)
  })

  it.each([
    ['a bug', new TypeError('x is undefined')],
    ['a constraint', new PostgresError('duplicate key value violates unique constraint', '23505')],
    ['SQLite busy', coded('SQLITE_BUSY')],
    ['an agent or a channel refusing a connection', coded('ECONNREFUSED')],
    ['no code', { message: 'x' }]
  ])('%s is not', (_what, err) => {
    expect(storageFailureCode(err)).toBeUndefined()
  })

  it('tells users which it is', () => {
    expect(storageFailureMessage('SQLITE_FULL')).toBe('the server cannot store data: its disk is full; try again once space is freed')
    expect(storageFailureMessage('53100')).toBe(storageFailureMessage('SQLITE_FULL'))
    expect(storageFailureMessage('ECONNREFUSED')).toBe('the server cannot reach its database (ECONNREFUSED); try again later')
    expect(storageFailureMessage('25006')).toMatch(/its database is read-only \(25006\), as a standby is/)
    expect(storageFailureMessage('53300')).toMatch(/out of resources \(53300\)/)
    expect(storageFailureMessage('55P03')).toMatch(/its database is busy, a lock is held by another session \(55P03\); try again shortly$/)
    expect(storageFailureMessage('57014')).toMatch(/its database did not answer in time \(57014\)/)
    expect(storageFailureMessage('SQLITE_IOERR_WRITE')).toMatch(/writing its database failed \(SQLITE_IOERR_WRITE\)/)
  })
})
