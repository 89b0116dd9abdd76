// What the live feed (GET /api/2/live, Server-Sent Events) tells a console: one change per frame,
// `event:` is the change's kind, `data:` its JSON. Shared by the server and the console.

/** A stored event, as much as a console needs to list it without asking the API again. */
export interface LiveEvent {
  id: number
  service: string
  serviceType: number
  /** The event class bit (shared/codes eventClasses). */
  eventClass: number
  state: number
  action: number
  message: string
  /** Unix seconds, agent time. */
  date: number
}

export type LiveChange =
  | { kind: 'host-registered'; hostId: number; hostname: string }
  | { kind: 'host-changed'; hostId: number; hostname: string; led: number; status: string }
  | { kind: 'service-changed'; hostId: number; hostname: string; service: string; led: number; status: string }
  | { kind: 'event'; hostId: number; hostname: string; event: LiveEvent }
  | { kind: 'heartbeat'; hostId: number; hostname: string; alive: boolean; led: number; status: string }
  | { kind: 'host-removed'; hostId: number }

export type LiveKind = LiveChange['kind']

/** A published change with its feed id (the SSE `id:`, what Last-Event-ID resumes after). */
export interface LiveEnvelope {
  id: number
  change: LiveChange
}

/** Sent instead of a replay when the client's Last-Event-ID is older than the server remembers: reload. */
export const LIVE_RESET = 'reset'

/** Sent once per connection, after any replay: `id:` is where this stream starts. */
export const LIVE_READY = 'ready'
