// A client that writes raw bytes on its own connection and reports what came back and when the server
// closed it: for requests no HTTP client would send (slow, partial, many at once).
import net from 'node:net'

export interface RawConnection {
  socket: net.Socket
  /** Everything the server sent so far. */
  received(): string
  /** Resolves once the server has closed the connection (or it broke), with ms since it opened. */
  closed: Promise<number>
  /** Resolves once the server's answer holds `text`. */
  receivedText(text: string): Promise<void>
}

/** Connects to 127.0.0.1:`port` (from `localAddress` if given) and writes `bytes` once connected. */
export function openRaw(port: number, bytes: string | Buffer = '', localAddress?: string): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const opened = performance.now()
    let data = ''
    const waiting = new Set<{ text: string; done: () => void }>()
    const socket = net.connect({ host: '127.0.0.1', port, localAddress })
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('latin1')
      for (const w of waiting) {
        if (!data.includes(w.text)) continue
        waiting.delete(w)
        w.done()
      }
    })
    // A reset by the server counts as closed: that is how a refused connection may end.
    socket.on('error', () => {})
    const closed = new Promise<number>((done) => socket.once('close', () => done(performance.now() - opened)))
    socket.once('connect', () => {
      socket.off('error', reject)
      if (bytes.length > 0) socket.write(bytes)
      resolve({
        socket,
        closed,
        received: () => data,
        receivedText: (text) => (data.includes(text) ? Promise.resolve() : new Promise<void>((done) => waiting.add({ text, done })))
      })
    })
    socket.once('error', reject)
  })
}

/** A request's head, ending in the blank line unless `complete` is false. */
export function requestHead(method: string, path: string, headers: Record<string, string | number>, complete = true): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)]
  return lines.join('\r\n') + (complete ? '\r\n\r\n' : '\r\n')
}
