// Between the test and the app process running under the stand-in (over the fork IPC channel).
import type { Observation } from './observations'
import type { standIn } from './settings'

export type Command =
  /** A console page at `frameUrl` calls window.overseerDesktop's channel. */
  | { type: 'invoke'; id: number; channel: string; frameUrl: string; args: unknown[] }
  | { type: 'tray-click' }
  | { type: 'tray-menu'; label: string }
  /** Windows shutting down or logging off: query-session-end, session-end, then the process is ended. */
  | { type: 'end-session'; killAfterMs: number }
  | { type: 'configure'; settings: Partial<typeof standIn> }

export type Report = { type: 'observed'; observation: Observation } | { type: 'reply'; id: number; result?: unknown; error?: string }
