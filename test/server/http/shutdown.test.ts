// Closing the server while a request is in flight (the desktop app quitting while the console loads its
// screens): the answer closes its connection, so the shutdown does not wait for the browser's keep-alive
// (72 s) or the request timeout. Over a raw socket, to hold a request half-sent.
import { connect, type Socket } from 'node:net'
import { once } from 'node:events'
import { expect, it } from 'vitest'
import { startTestServer } from '../../support/in-process-server'

/** Everything the socket receives until the server closes it. */
function received(socket: Socket): Promise<string> {
  let text = ''
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
  return once(socket, 'close').then(() => text)
}

it('answers a request in flight when closing starts with Connection: close, and closes its connection', async () => {
  const server = await startTestServer()
  const socket = connect(server.port, '127.0.0.1')
  await once(socket, 'connect')
  const answer = received(socket)
  const body = '{"uname":"nobody"}'
  socket.write(
    `POST /api/2/status/hosts/list HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body.slice(0, 5)}`
  )
  // The server runs in this process: once its loop has turned, it holds the request, its body half in.
  await new Promise((resolve) => setTimeout(resolve, 50))
  const closed = server.stopAndClean()
  socket.write(body.slice(5))
  const text = await answer
  expect(text).toMatch(/^HTTP\/1\.1 \d{3} /) // answered (without a session: the login page)
  expect(text.toLowerCase()).toContain('\r\nconnection: close\r\n')
  await closed
})
