// Administration › Pulled agents (issue 30 §1): an administrator adds agents the server reads from their
// httpd. Two stand-ins for Monit's httpd, started here on ports the OS picks (one over HTTPS), answer GET
// /_status2?format=xml with a real heartbeat (fixture 02, re-timed to now) to the right Basic credentials and
// 401 otherwise. The one added with its password answers within a poll, lists its host and its pinned
// certificate; the one with a wrong password shows the agent's refusal; the list follows the polls without a
// reload; the form's own checks and the server's 400 and 409 show under it; a deleted agent leaves the list;
// at 390 px every agent is a card.
import { rmSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { dirname } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { selfSigned, type SelfSigned } from '../test/support/certificates'
import { asAgent, fixture } from '../test/support/fixtures'
import { retimeCapture } from '../test/support/payloads'
import { logIn, screenshot } from './support/console'
import { PHONE } from './support/routes'

/** The last collected_sec of fixture 02: each answer is re-timed so that it reads as collected now. */
const CAPTURED_SEC = 1795300306
const POLL_SEC = 2
/** The first poll comes about a second after an agent is added, then every POLL_SEC; the list every 3 s. */
const POLLED_MS = 20_000

interface FakeMonit {
  url: string
  /** Requests answered with the status (right credentials). */
  answered: number
  /** What the stand-in accepts from now on. */
  password: string
  close(): Promise<void>
}

/** A Monit httpd stand-in on 127.0.0.1 (a port the OS picks): the status to `admin:<password>`, 401 to anyone
 *  else; over HTTPS with `tls` (its `ssl { pemfile }`). */
async function startFakeMonit(agentId: string, hostname: string, password: string, tls?: SelfSigned): Promise<FakeMonit> {
  const heartbeat = asAgent(fixture('02-status-heartbeat'), agentId, hostname)
  const fake = { answered: 0, password }
  const answer: http.RequestListener = (req, res) => {
    res.setHeader('Server', 'monit 5.33.0')
    const expected = `Basic ${Buffer.from(`admin:${fake.password}`).toString('base64')}`
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="monit"', 'Content-Type': 'text/html' })
      res.end('<html><body><h2>Unauthorized</h2>You are not authorized to access monit.</body></html>')
      return
    }
    if (req.method !== 'GET' || req.url !== '/_status2?format=xml') {
      res.writeHead(404, { 'Content-Type': 'text/html' })
      res.end('<html><body><h2>Not Found</h2></body></html>')
      return
    }
    fake.answered++
    const now = Math.floor(Date.now() / 1000)
    res.writeHead(200, { 'Content-Type': 'text/xml; charset=ISO-8859-1' })
    res.end(Buffer.from(retimeCapture(heartbeat, now - CAPTURED_SEC), 'latin1'))
  }
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, answer) : http.createServer(answer)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(fake, {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  })
}

let certificate: SelfSigned
let good: FakeMonit
let refusing: FakeMonit

test.beforeAll(async () => {
  certificate = selfSigned('pulled-e2e-host')
  good = await startFakeMonit('b0110000000000000000000000000001', 'pulled-e2e-host', 'monitpw', certificate)
  refusing = await startFakeMonit('b0110000000000000000000000000002', 'pulled-e2e-other', 'rightpw')
})

test.afterAll(async () => {
  await good?.close()
  await refusing?.close()
  if (certificate) rmSync(dirname(certificate.pemfile), { recursive: true, force: true })
})

const rowOf = (page: Page, url: string) => page.locator(`tr[data-pulled-url="${url}"]`)

async function addAgent(page: Page, url: string, password: string, poll = String(POLL_SEC)): Promise<void> {
  await page.getByLabel('URL of its httpd').fill(url)
  await page.getByLabel('User', { exact: true }).fill('admin')
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Poll every (seconds)').fill(poll)
  await page.getByRole('button', { name: 'Add agent' }).click()
}

test('an administrator pulls agents that cannot reach the server, sees each poll, and stops pulling one', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 })
  await logIn(page)
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Pulled agents' }).click()
  await expect(page.getByRole('heading', { name: 'Pulled agents', level: 2 })).toBeVisible()
  await expect(page).toHaveTitle(/Pulled agents — Overseer$/)
  // Nothing pulled yet: what pulled agents are for, and that set mmonit is better for the others.
  await expect(page.getByTestId('pulled-agents-none')).toContainText('cannot reach this server')
  await expect(page.getByTestId('pulled-agents-none')).toContainText('set mmonit is better')
  await screenshot(page, 'pulled-agents-empty')

  // With its password: answered within a poll, its host listed and linked, without a reload.
  await addAgent(page, good.url, 'monitpw')
  const goodRow = rowOf(page, good.url)
  await expect(goodRow).toBeVisible()
  await expect(page.getByLabel('URL of its httpd')).toHaveValue('')
  await expect(goodRow).toHaveAttribute('data-pulled-state', 'ok', { timeout: POLLED_MS })
  expect(good.answered).toBeGreaterThan(0)
  const host = goodRow.getByRole('link', { name: 'pulled-e2e-host' })
  await expect(host).toHaveAttribute('href', /#\/hosts\/\d+$/)
  await expect(goodRow).toContainText('every 2 s')
  await expect(goodRow).toContainText('as admin')
  // Its certificate, pinned at the first answer: shortened, the whole fingerprint on hover.
  const pinned = goodRow.locator('[data-certificate]')
  await expect(pinned).toHaveAttribute('data-certificate', certificate.sha256)
  await expect(pinned).toHaveAttribute('title', `SHA-256 ${certificate.sha256}`)
  const pairs = certificate.sha256.split(':')
  await expect(pinned).toHaveText(`${pairs.slice(0, 4).join(':')}…${pairs.slice(-2).join(':')}`)
  const answered = goodRow.locator('time')
  await expect(answered).toHaveText(/^\d+ s ago$/)
  // The absolute time on hover, in the browser's time zone, as the other screens write it.
  const answeredAt = new Date((await answered.getAttribute('datetime'))!)
  expect(await answered.getAttribute('title')).toBe(
    new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(answeredAt)
  )

  // With a wrong password: the agent's refusal, marked as failing, and no host.
  await addAgent(page, refusing.url, 'wrongpw')
  const refusedRow = rowOf(page, refusing.url)
  await expect(refusedRow).toHaveAttribute('data-pulled-state', 'failing', { timeout: POLLED_MS })
  await expect(refusedRow.getByTestId('pulled-error')).toContainText(
    `bad credentials: the agent at 127.0.0.1:${new URL(refusing.url).port}`
  )
  await expect(refusedRow.getByTestId('pulled-error')).toContainText('Failing')
  await expect(refusedRow).toContainText('not answered yet')
  await expect(refusedRow).toContainText('never')
  await expect(refusedRow).toContainText('none (HTTP)')
  expect(refusing.answered).toBe(0)
  await screenshot(page, 'pulled-agents')

  // The list follows the polls while it is open: the first agent's password changes, its row says so, and back.
  good.password = 'changed'
  await expect(goodRow).toHaveAttribute('data-pulled-state', 'failing', { timeout: POLLED_MS })
  await expect(goodRow.getByTestId('pulled-error')).toContainText("rejected user 'admin'")
  await expect(host).toBeVisible()
  good.password = 'monitpw'
  await expect(goodRow).toHaveAttribute('data-pulled-state', 'ok', { timeout: POLLED_MS })

  // The form's own checks, before anything is sent.
  const creates: string[] = []
  page.on('request', (r) => {
    if (r.url().endsWith('/api/2/admin/pulled/create')) creates.push(r.postData() ?? '')
  })
  await addAgent(page, 'ftp://127.0.0.1:2812', 'x', '1')
  await expect(page.getByText('Start with http:// or https://, e.g. https://10.0.0.5:2812')).toBeVisible()
  await expect(page.getByText('Whole seconds from 2 to 3600')).toBeVisible()
  await addAgent(page, 'http://admin:monitpw@127.0.0.1:2812/_status', 'x')
  await expect(page.getByText('Give the credentials as user and password below, not in the URL')).toBeVisible()
  await addAgent(page, 'http://127.0.0.1:2812/_status', 'x')
  await expect(page.getByText("Only the agent's address, without a path")).toBeVisible()
  expect(creates).toEqual([])

  // What only the server knows: an agent added already (409), under the form.
  const notAdded = page.getByRole('alert').filter({ hasText: 'Not added' })
  await addAgent(page, good.url, 'monitpw')
  await expect(notAdded).toContainText(`an agent at ${good.url} is pulled already`)
  // The server's own 400 for a bad URL, under the form: a request the form would not send (its checks are
  // the server's), its URL changed on the way.
  await page.route('**/api/2/admin/pulled/create', (route) => {
    const body = new URLSearchParams(route.request().postData() ?? '')
    body.set('url', 'http://127.0.0.1:2812/_status2')
    return route.continue({ postData: body.toString() })
  })
  await addAgent(page, 'http://127.0.0.1:2812', 'x')
  await expect(notAdded).toContainText("invalid argument 'url': expected the agent's address only, without a path")
  await page.unroute('**/api/2/admin/pulled/create')
  await screenshot(page, 'pulled-agents-refused')
  // Once the form's own checks have something else to say, the server's refusal goes.
  await addAgent(page, 'agent.example.net', 'x')
  await expect(page.getByText('Start with http:// or https://, e.g. https://10.0.0.5:2812')).toBeVisible()
  await expect(notAdded).toHaveCount(0)
  await expect(page.locator('tr[data-pulled-url]')).toHaveCount(2)

  // On a phone each agent is a card that fits 390 px, its Delete button in reach.
  await page.setViewportSize(PHONE)
  await expect(goodRow).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
  const remove = refusedRow.getByRole('button', { name: `Delete ${refusing.url}` })
  await remove.scrollIntoViewIfNeeded()
  await expect(remove).toBeInViewport()
  await expect(refusedRow.getByTestId('pulled-error')).toBeInViewport()
  await screenshot(page, 'pulled-agents-phone')
  await page.setViewportSize({ width: 1440, height: 900 })

  // Deleting asks first; then the agent is read no more, and the other stays.
  await refusedRow.getByRole('button', { name: `Delete ${refusing.url}` }).click()
  const dialog = page.getByRole('dialog', { name: 'Stop pulling this agent?' })
  await expect(dialog).toContainText(`The server stops reading ${refusing.url}`)
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await expect(refusedRow).toHaveCount(0)
  await expect(goodRow).toBeVisible()
  await page.reload()
  await expect(goodRow).toHaveAttribute('data-pulled-state', 'ok')
  await expect(rowOf(page, refusing.url)).toHaveCount(0)
})
