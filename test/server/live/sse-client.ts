// A minimal Server-Sent Events reader over node:http, for tests: collects frames as they arrive.
import { request, type IncomingMessage } from 'node:http'

export interface SseFrame {
  id?: string
  event: string
  data: string
}

export interface SseStream {
  status: number
  contentType: string | undefined
  frames: SseFrame[]
  /** Text received before any frame parse, for non-stream answers (the login page). */
  text(): string
  /** Resolves with the first frame (from `from` on) matching, or rejects after `timeoutMs`. */
  waitFor(match: (f: SseFrame) => boolean, timeoutMs?: number): Promise<SseFrame>
  ended: Promise<void>
  close(): void
}

export function openSse(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { headers: { Accept: 'text/event-stream', ...headers }, agent: false })
    req.on('error', reject)
    req.on('response', (res: IncomingMessage) => resolve(reader(res, () => req.destroy())))
    req.end()
  })
}

function reader(res: IncomingMessage, destroy: () => void): SseStream {
  const frames: SseFrame[] = []
  const waiters = new Set<() => void>()
  let raw = ''
  let buffer = ''
  res.setEncoding('utf8')
  res.on('data', (chunk: string) => {
    raw += chunk
    buffer += chunk
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const frame: SseFrame = { event: 'message', data: '' }
      let hasData = false
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':')
        if (colon === 0) continue // a comment
        const field = colon < 0 ? line : line.slice(0, colon)
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
        if (field === 'id') frame.id = value
        else if (field === 'event') frame.event = value
        else if (field === 'data') {
          frame.data += (hasData ? '\n' : '') + value
          hasData = true
        }
      }
      if (hasData) frames.push(frame)
    }
    for (const w of waiters) w()
  })
  const ended = new Promise<void>((resolve) => {
    res.on('close', resolve)
    res.on('end', resolve)
  })
  return {
    status: res.statusCode ?? 0,
    contentType: res.headers['content-type'],
    frames,
    text: () => raw,
    ended,
    close: destroy,
    waitFor(match, timeoutMs = 2000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.find(match)
          if (!found) return
          cleanup()
          resolve(found)
        }
        const timer = setTimeout(() => {
          cleanup()
          reject(new Error(`no matching SSE frame within ${timeoutMs} ms`))
        }, timeoutMs)
        const cleanup = () => {
          clearTimeout(timer)
          waiters.delete(check)
        }
        waiters.add(check)
        check()
      })
    }
  }
}

export const dataOf = (f: SseFrame): Record<string, unknown> => JSON.parse(f.data) as Record<string, unknown>
