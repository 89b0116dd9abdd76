// GET /api/2/live (also /live, /api/1/live): the change feed as Server-Sent Events, for a logged-in
// caller, filtered per change by the caller's current View permission. Resumes after Last-Event-ID.
import type { ServerResponse } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Permission } from '../../shared/codes'
import { LIVE_READY, LIVE_RESET, type LiveEnvelope } from '../../shared/live'
import type { Principals } from '../auth/principals'
import type { Session } from '../auth/sessions'
import { mayOnHost, type Principal } from '../domain/permissions'
import type { ChangeFeed } from './change-feed'

export const LIVE_PATHS = ['/api/2/live', '/api/1/live', '/live'] as const

/** What the stream needs of the HTTP layer's session gate (http/session-gate.ts), which app.ts passes in. */
export interface LiveGate {
  /** The logged-in caller, or undefined after the login page has been sent. */
  caller(request: FastifyRequest, reply: FastifyReply): { session: Session; principal: Principal } | undefined
  session(request: FastifyRequest): Session | undefined
}

export interface LiveRouteOptions {
  gate: LiveGate
  principals: Principals
  feed: ChangeFeed
  keepAliveMs?: number
  /** Bytes queued for one client beyond which it is dropped as too slow (it reconnects and resumes). */
  maxBufferedBytes?: number
}

export function liveRoutes(app: FastifyInstance, opts: LiveRouteOptions): void {
  const open = new Set<ServerResponse>()
  // End every stream before the server waits for its connections to close, or close() would hang.
  app.addHook('preClose', (done) => {
    for (const raw of open) raw.end()
    done()
  })
  const handler = (request: FastifyRequest, reply: FastifyReply) => {
    const caller = opts.gate.caller(request, reply)
    if (!caller) return reply
    reply.hijack()
    const raw = reply.raw
    open.add(raw)
    stream(request, raw, caller.session.userId ?? -1, caller.principal, opts, () => open.delete(raw))
    return reply
  }
  for (const url of LIVE_PATHS) app.get(url, handler)
}

function stream(request: FastifyRequest, raw: ServerResponse, userId: number, first: Principal,
  opts: LiveRouteOptions, closed: () => void): void {
  const { feed, principals, gate } = opts
  const maxBuffered = opts.maxBufferedBytes ?? 1024 * 1024
  raw.writeHead(200, {
    'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive',
    // Reverse proxies (nginx) would otherwise hold frames back.
    'X-Accel-Buffering': 'no'
  })
  raw.write('retry: 2000\n\n')
  // The principal a change was last judged by: a removed host has left the roles already, so its
  // removal is judged by what the caller could see before.
  let principal = first
  const send = (envelope: LiveEnvelope): void => {
    if (raw.writableEnded || raw.destroyed) return
    const current = principals.of(userId)
    if (!current) {
      raw.end()
      return
    }
    const { change } = envelope
    const judge = change.kind === 'host-removed' ? principal : current
    principal = current
    if (!mayOnHost(judge, change.hostId, Permission.View)) return
    raw.write(`id: ${envelope.id}\nevent: ${change.kind}\ndata: ${JSON.stringify(change)}\n\n`)
    // A client that does not read would make the server buffer without bound.
    if (raw.writableLength > maxBuffered) raw.destroy()
  }

  // Replay and subscribe in the same tick: publishing is synchronous, so nothing falls between.
  const resumeFrom = lastEventId(request)
  if (resumeFrom !== undefined) {
    const missed = feed.since(resumeFrom)
    if (missed) for (const envelope of missed) send(envelope)
    else raw.write(`event: ${LIVE_RESET}\ndata: {}\n\n`)
  }
  // Tells a fresh client where the stream starts, so that its first reconnect resumes from there.
  raw.write(`id: ${feed.lastId}\nevent: ${LIVE_READY}\ndata: ${JSON.stringify({ lastId: feed.lastId })}\n\n`)
  const unsubscribe = feed.subscribe(send)
  const keepAlive = setInterval(() => {
    // A logged-out or expired session ends the stream; the client's reconnect then gets the login page.
    if (gate.session(request)?.userId == null) raw.end()
    else raw.write(': keep-alive\n\n')
  }, opts.keepAliveMs ?? 15_000)
  keepAlive.unref()
  raw.on('close', () => {
    unsubscribe()
    clearInterval(keepAlive)
    closed()
  })
}

function lastEventId(request: FastifyRequest): number | undefined {
  const header = request.headers['last-event-id']
  const query = (request.query as Record<string, unknown> | undefined)?.lastEventId
  const text = typeof header === 'string' && header !== '' ? header : typeof query === 'string' ? query : undefined
  if (text === undefined || !/^\d+$/.test(text)) return undefined
  return Number(text)
}
