// How the live changes of one instance reach the others sharing its database (PostgreSQL's
// LISTEN/NOTIFY: postgres/change-channel.ts). A SQLite file has one process: it has no channel.
import type { LiveChange } from '../../shared/live'

export interface ChangeChannel {
  /** Starts listening: `onChanges` gets what the OTHER instances send, never this one's own. */
  listen(onChanges: (changes: LiveChange[]) => void): Promise<void>
  /** Sends this instance's changes (best effort: live changes that cannot be sent are logged and dropped). */
  send(changes: readonly LiveChange[]): void
  close(): Promise<void>
}
