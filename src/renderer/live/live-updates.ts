// One Server-Sent Events stream per page (GET /api/2/live): every change refreshes the queries it
// can affect, at most once per second per kind of query, so 10,000 hosts reporting do not turn into
// 10,000 refetches.
import type { QueryClient } from '@tanstack/react-query'
import type { LiveKind } from '../../shared/live'
import { serverAnswered, serverUnreachable } from './connection'

export type LiveState = 'connecting' | 'live' | 'reconnecting'

const LIVE_KINDS: readonly LiveKind[] = ['host-registered', 'host-changed', 'service-changed', 'event', 'heartbeat', 'host-removed']
const REFRESH_EVERY_MS = 1000

/** Query key roots each kind of change makes stale; query keys start with these names. */
const STALE_AFTER: Record<LiveKind, readonly string[]> = {
  'host-registered': ['status', 'uptime', 'admin'],
  'host-changed': ['status'],
  'service-changed': ['status'],
  event: ['events', 'status'],
  heartbeat: ['status', 'uptime'],
  'host-removed': ['status', 'uptime', 'events', 'admin', 'forecasts']
}

const stateListeners = new Set<(state: LiveState) => void>()
let state: LiveState = 'connecting'

export function onLiveState(listener: (state: LiveState) => void): () => void {
  stateListeners.add(listener)
  listener(state)
  return () => {
    stateListeners.delete(listener)
  }
}

function setState(next: LiveState): void {
  state = next
  for (const listener of stateListeners) listener(next)
}

/** Opens the stream; EventSource reconnects by itself and resumes after the last id it saw. */
export function startLiveUpdates(queryClient: QueryClient): () => void {
  const source = new EventSource('/api/2/live')
  const pending = new Set<string>()
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    timer = undefined
    for (const root of pending) void queryClient.invalidateQueries({ queryKey: [root] })
    pending.clear()
  }
  const stale = (roots: readonly string[]) => {
    for (const root of roots) pending.add(root)
    timer ??= setTimeout(flush, REFRESH_EVERY_MS)
  }
  for (const kind of LIVE_KINDS) {
    source.addEventListener(kind, () => {
      serverAnswered()
      stale(STALE_AFTER[kind])
    })
  }
  // The server's reset: what we missed is gone from its memory, so everything may be stale.
  source.addEventListener('reset', () => stale(['status', 'events', 'uptime', 'admin', 'forecasts']))
  source.addEventListener('ready', () => {
    serverAnswered()
    setState('live')
  })
  source.onerror = () => {
    // CLOSED: the server answered but refused the stream (an ended session), it is not unreachable.
    if (source.readyState !== EventSource.CLOSED) serverUnreachable()
    setState('reconnecting')
  }
  return () => {
    source.close()
    if (timer) clearTimeout(timer)
  }
}
