// The change feed as Server-Sent Events (GET /api/2/live, also /live and /api/1/live: api/live.ts), for
// a logged-in caller, filtered per change by the caller's current View permission. Resumes after
// Last-Event-ID.
import type { ServerResponse } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Permission } from '../../shared/codes'
import { LIVE_READY, LIVE_RESET, type LiveEnvelope } from '../../shared/live'
import type { Principals } from '../auth/principals'
import { mayOnHost, type Principal } from '../domain/permissions'
import { HttpError } from '../web/http-error'
import type { ChangeFeed } from './change-feed'

export interface LiveStreamOptions {
  principals: Principals
  feed: ChangeFeed
  /** Whether the request's session is still logged in: a logged-out or expired one ends the stream. */
  loggedIn(request: FastifyRequest): boolean
  keepAliveMs?: number
  /** Bytes queued for one client beyond which it is dropped as too slow (it reconnects and resumes). */
  maxBufferedBytes?: number
}

/** Every open stream, so that closing the server can end them (or close() would wait on them). */
export class LiveStreams {
  private readonly open = new Set<ServerResponse>()
  private closing = false

  constructor(private readonly opts: LiveStreamOptions) {}

  /**
   * Takes the reply over and streams to it until the client goes. Once the server is closing, a client
   * reconnecting over a connection still open (its stream was just ended) is answered 503: a stream
   * opened then would hold the shutdown until the request timeout.
   */
  serve(request: FastifyRequest, reply: FastifyReply, userId: number, principal: Principal, lastEventId: string | undefined): void {
    if (this.closing) throw new HttpError(503, 'the server is shutting down', { 'Retry-After': '2', Connection: 'close' })
    reply.hijack()
    const raw = reply.raw
    this.open.add(raw)
    stream(request, raw, userId, principal, resumePoint(request, lastEventId), this.opts, () => this.open.delete(raw))
  }

  closeAll(): void {
    this.closing = true
    for (const raw of this.open) raw.end()
  }
}

function stream(
  request: FastifyRequest,
  raw: ServerResponse,
  userId: number,
  first: Principal,
  resumeFrom: number | undefined,
  opts: LiveStreamOptions,
  closed: () => void
): void {
  const { feed, principals } = opts
  const maxBuffered = opts.maxBufferedBytes ?? 1024 * 1024
  raw.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    // Reverse proxies (nginx) would otherwise hold frames back.
    'X-Accel-Buffering': 'no'
  })
  raw.write('retry: 2000\n\n')
  // The principal a change was last judged by: a removed host has left the roles already, so its
  // removal is judged by what the caller could see before.
  let principal = first
  const send = (envelope: LiveEnvelope): void => {
    if (raw.writableEnded || raw.destroyed) return
    const current = readOrEnd(() => principals.of(userId))
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
    if (!readOrEnd(() => opts.loggedIn(request))) raw.end()
    else raw.write(': keep-alive\n\n')
  }, opts.keepAliveMs ?? 15_000)
  keepAlive.unref()
  raw.on('close', () => {
    unsubscribe()
    clearInterval(keepAlive)
    closed()
  })
}

/**
 * What the stream needs to read from the store (the session, the caller's permissions); undefined, which
 * ends the stream, when it cannot be read now (the database out of reach): the client reconnects and is
 * answered 503 until the database is back, rather than keep a stream nobody can judge changes for. Read
 * from a timer or a feed listener, a throw would end the process or silently drop the subscription.
 */
function readOrEnd<T>(read: () => T): T | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}

/** The Last-Event-ID header (a reconnecting EventSource), else the `lastEventId` argument; bad values start afresh. */
function resumePoint(request: FastifyRequest, query: string | undefined): number | undefined {
  const header = request.headers['last-event-id']
  const text = typeof header === 'string' && header !== '' ? header : query
  if (text === undefined || !/^\d+$/.test(text)) return undefined
  return Number(text)
}
