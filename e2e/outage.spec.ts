// Honest during an outage: this spec's own server (its port, its data dir) is killed while the console
// is open, then started again on the same data. The banner says since when the figures date, the screen
// is marked stale, and on reconnect the banner goes and the outage's errors clear without a reload.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { removeDir, startBuiltServer, type BuiltServer } from '../test/support/built-server'
import { E2E_PORT, logIn, report } from './support/console'

const PORT = E2E_PORT + 1
const ADMIN = { uname: 'admin', password: 'outage-admin' }
const COLLECTOR = 'monit:outagecollect'
const dataDir = mkdtempSync(join(tmpdir(), 'overseer-outage-'))
let server: BuiltServer

const start = () =>
  startBuiltServer({
    dataDir,
    args: ['--port', String(PORT), '--init-admin', `${ADMIN.uname}:${ADMIN.password}`, '--init-collector', COLLECTOR]
  })

test.beforeAll(async () => {
  server = await start()
  await report('03-event-process-not-running', 'a5a50000000000000000000000000001', 'outage-alpha', {
    baseUrl: server.baseUrl,
    auth: COLLECTOR
  })
})
test.afterAll(async () => {
  await server.kill()
  removeDir(dataDir)
})

test('a server outage shows a banner and stale figures; on reconnect both go and the errors clear by themselves', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await logIn(page, ADMIN.uname, ADMIN.password, server.baseUrl)
  await expect(page.locator('[data-live="live"]')).toBeVisible()
  const nav = page.getByRole('navigation', { name: 'Main navigation' })
  await nav.getByRole('link', { name: 'Events' }).click()
  await expect(page.getByRole('table', { name: 'Events' })).toBeVisible()
  const banner = page.getByTestId('outage-banner')
  await expect(banner).toHaveCount(0)
  // Every screen's code is in once the first is shown: none has to come from the server during the outage.
  await expect(page.locator('html')).toHaveAttribute('data-screens-loaded', 'true')

  await server.kill()
  await expect(banner).toBeVisible()
  // A screen not opened yet opens all the same (its code was loaded beforehand), its data marked stale.
  await nav.getByRole('link', { name: 'Uptime' }).click()
  await expect(page.getByRole('heading', { name: 'Uptime', level: 2 })).toBeVisible()
  await expect(banner).toBeVisible()
  await nav.getByRole('link', { name: 'Events' }).click()
  await expect(page.getByRole('table', { name: 'Events' })).toBeVisible()
  await expect(banner).toContainText('The server cannot be reached')
  // The time of the last good data, as the clock of this page shows it.
  await expect(banner.locator('time')).toHaveText(/\d{1,2}:\d{2}:\d{2}/)
  await expect(page.locator('[data-stale]')).toBeVisible()
  await expect(page.locator('[data-live="reconnecting"]')).toBeVisible()

  // The host picker and the export ask the server while it is down: their errors show, as they should, for now.
  const unreachable = page.getByText('The server cannot be reached. Is it running?')
  await page.getByRole('button', { name: 'Export CSV' }).click()
  await expect(unreachable).toHaveCount(1)
  const hosts = page.getByRole('combobox', { name: 'Hosts', exact: true })
  await hosts.fill('outage')
  await expect(unreachable).toHaveCount(2, { timeout: 15_000 })
  await page.keyboard.press('Escape')
  await page.screenshot({ path: 'shots/outage-desktop.png' })

  server = await start()
  await expect(banner).toHaveCount(0, { timeout: 15_000 })
  await expect(page.locator('[data-stale]')).toHaveCount(0)
  await expect(page.locator('[data-live="live"]')).toBeVisible()
  await expect(unreachable).toHaveCount(0)
  await hosts.click()
  await expect(page.getByRole('option', { name: 'outage-alpha' })).toBeVisible()
  await page.screenshot({ path: 'shots/outage-reconnected.png' })
})

test('on a phone the outage banner fits the screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await logIn(page, ADMIN.uname, ADMIN.password, server.baseUrl)
  await expect(page.locator('[data-live="live"]')).toBeVisible()
  await server.kill()
  const banner = page.getByTestId('outage-banner')
  await expect(banner).toBeVisible()
  const box = await banner.boundingBox()
  expect(box!.x + box!.width).toBeLessThanOrEqual(390)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.screenshot({ path: 'shots/outage-phone.png' })
  server = await start()
  await expect(banner).toHaveCount(0, { timeout: 15_000 })
})
