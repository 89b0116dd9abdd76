// For tests of work moved off the event loop (PostgreSQL): waits until a session waits on `table`, locked
// by `holder`, then until the event loop has turned 20 times more meanwhile — what a synchronous wait on
// this thread would prevent.
import type { SyncConnection } from '../../src/server/store/postgres/sync-connection'
import { waitFor } from './wait'

export async function eventLoopTurnsWhileWaitingOn(holder: SyncConnection, table: string, timeoutMs = 30_000): Promise<void> {
  let ticks = 0
  const ticker = setInterval(() => ticks++, 5)
  try {
    const waiting = () =>
      Number(holder.query(`SELECT count(*) AS n FROM pg_locks WHERE relation = '${table}'::regclass AND NOT granted`).rows[0].n) > 0
    await waitFor(`a session waiting on the lock of ${table}`, waiting, timeoutMs, 10)
    const ticksWhileLocked = ticks
    await waitFor('the event loop turning meanwhile', () => ticks >= ticksWhileLocked + 20, 10_000, 5)
  } finally {
    clearInterval(ticker)
  }
}
