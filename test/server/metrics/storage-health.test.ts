import { describe, expect, it } from 'vitest'
import { StorageHealth } from '../../../src/server/metrics/storage-health'

const coded = (code: string, message: string) => Object.assign(new Error(message), { code })

/** A clock the test moves: StorageHealth ignores a success within a second of a failure. */
let nowMs = 0
const later = () => (nowMs += 1_000)
const quiet = { info: () => {}, warn: () => {}, error: () => {} }

describe('StorageHealth', () => {
  it('counts writes refused for lack of storage, logs once per kind, and clears with the next write that works', () => {
    const lines: string[] = []
    const health = new StorageHealth(
      { info: (m) => lines.push(`INFO ${m}`), warn: () => {}, error: (m) => lines.push(`ERROR ${m}`) },
      () => nowMs
    )
    expect(health.bestEffort(() => 'written')).toBe('written')
    expect(health.unavailable).toBeUndefined()
    expect(
      health.bestEffort(() => {
        throw coded('SQLITE_FULL', 'database or disk is full')
      })
    ).toBeUndefined()
    expect(health.writeFailed(coded('SQLITE_FULL', 'database or disk is full'))).toBe('SQLITE_FULL')
    expect(health.writeFailed({ code: 'SQLITE_IOERR_WRITE', message: 'disk I/O error' })).toBe('SQLITE_IOERR_WRITE')
    expect(health).toMatchObject({ unavailable: 'SQLITE_IOERR_WRITE', failedWrites: 3 })
    expect(lines.map((l) => l.slice(0, l.indexOf(';')))).toEqual([
      'ERROR storage: writing the database failed: SQLITE_FULL: database or disk is full',
      'ERROR storage: writing the database failed: SQLITE_IOERR_WRITE: disk I/O error'
    ])
    later()
    health.writeSucceeded(nowMs)
    health.writeSucceeded(nowMs)
    expect(health).toMatchObject({ unavailable: undefined, failedWrites: 3 })
    expect(lines.slice(2)).toEqual(['INFO storage: writing the database works again'])
  })

  it('keeps a busy database busy through writes elsewhere; a full disk ends with any write that works', () => {
    const health = new StorageHealth(quiet, () => nowMs)
    expect(health.writeFailed(coded('55P03', 'canceling statement due to lock timeout'))).toBe('55P03')
    later()
    // A session stamp, written beside the locked table, says nothing of it.
    expect(health.bestEffort(() => 'stamped')).toBe('stamped')
    expect(health.unavailable).toBe('55P03')
    health.writeSucceeded(nowMs)
    expect(health.unavailable).toBeUndefined()
    health.writeFailed(coded('SQLITE_FULL', 'database or disk is full'))
    later()
    health.bestEffort(() => 'stamped')
    expect(health.unavailable).toBeUndefined()
  })

  it('leaves any other error to its caller: a bug, a constraint, a busy database are not a full disk', () => {
    const health = new StorageHealth(quiet, () => nowMs)
    expect(() =>
      health.bestEffort(() => {
        throw new TypeError('a bug')
      })
    ).toThrow('a bug')
    expect(() =>
      health.bestEffort(() => {
        throw coded('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed')
      })
    ).toThrow('UNIQUE')
    expect(health.writeFailed(coded('SQLITE_BUSY', 'database is locked'))).toBeUndefined()
    expect(health).toMatchObject({ unavailable: undefined, failedWrites: 0 })
  })

  it('ends nothing with a write that began before the failure was told, however late its success comes (another connection)', () => {
    const lines: string[] = []
    const health = new StorageHealth(
      { info: (m) => lines.push(`INFO ${m}`), warn: () => {}, error: (m) => lines.push(`ERROR ${m}`) },
      () => nowMs
    )
    const begunBefore = nowMs - 1
    health.writeFailed(coded('08006', 'connection failure'))
    nowMs += 5_000
    health.writeSucceeded(begunBefore)
    expect(health.unavailable).toBe('08006')
    health.writeSucceeded(nowMs - 1)
    expect(health.unavailable).toBeUndefined()
    expect(lines.map((l) => l.slice(0, 5))).toEqual(['ERROR', 'INFO '])
  })
})
