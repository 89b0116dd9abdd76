// Resource forecasts in the console (issue 30 §3): a host whose root filesystem fills 10 % a day over four
// days of heartbeats (the real fixture, its figures edited) shows "full in" about 3 days on its page and on
// the filesystem's, its flat or noisy resources without a time; the dashboard's "Running out" lists what the
// server's forecast job stored (every 10 minutes: this host, or nothing yet). At desk and phone widths, and
// with the server failing to answer.
import { expect, test, type Page } from '@playwright/test'
import { loginAs } from '../test/support/api-client'
import { postCollector } from '../test/support/collector-client'
import type { HostForecasts } from '../src/shared/api/forecasts'
import { asAgent, fixture } from '../test/support/fixtures'
import { withoutService, withPoll, withResourceFigures } from '../test/support/payloads'
import { ADMIN, BASE_URL, COLLECTOR_AUTH, logIn, screenshot } from './support/console'
import { DESK, PHONE } from './support/routes'

const AGENT = 'fc0a0000000000000000000000000001'
const HOST = 'forecast-filling'
const HOUR = 3600
const DAY = 86_400
let hostId: number

test.beforeAll(async () => {
  const now = Math.floor(Date.now() / 1000)
  // A host that stays out of the other specs' "Needs attention": nothing failing (no deadport), and a poll of a
  // day, so that it does not fall silent.
  const heartbeat = withPoll(withoutService(asAgent(fixture('02-status-heartbeat'), AGENT, HOST), 'deadport'), DAY)
  // Every two hours over four days, the newest first (it registers the host; the older ones are history):
  // rootfs 70 % full now, 10 % a day less before; memory jumping between 20 and 80 % with no trend.
  for (let i = 0; i < 49; i++) {
    const time = now - 60 - i * 2 * HOUR
    const xml = withResourceFigures(heartbeat, {
      collectedSec: time,
      spacePercent: 70 - (10 * (now - time)) / DAY,
      memoryPercent: [80, 20, 50][i % 3]
    })
    const res = await postCollector(BASE_URL, Buffer.from(xml, 'latin1'), { auth: COLLECTOR_AUTH })
    expect(res.status, res.body).toBe(200)
  }
  const admin = await loginAs(BASE_URL, ADMIN.uname, ADMIN.password)
  const list = (await admin.get('/api/2/status/hosts/list', { hostpattern: HOST })).json as { records: { id: number; hostname: string }[] }
  hostId = list.records.find((h) => h.hostname === HOST)!.id
  // The rollup job takes the four days just posted in slices meanwhile: the pages are looked at once the
  // server's own answer has the forecast.
  await expect
    .poll(
      async () => {
        const answer = (await admin.get('/api/2/reports/forecasts/host', { hostid: hostId })).json as HostForecasts
        return answer.records.some((r) => r.service === 'rootfs' && r.resource === 'space' && r.fullat !== null)
      },
      { timeout: 30_000 }
    )
    .toBe(true)
})

/** Nothing wider than the window: the page does not scroll sideways. */
async function fitsWidth(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
}

for (const [name, size] of [
  ['desk', DESK],
  ['phone', PHONE]
] as const) {
  test(`the host page and the filesystem's page tell when each resource is full (${name})`, async ({ page }) => {
    await page.setViewportSize(size)
    await logIn(page)
    await page.goto(`/#/hosts/${hostId}`)
    const forecasts = page.getByTestId('forecasts')
    await expect(forecasts.getByRole('heading', { name: 'Forecasts' })).toBeVisible()
    const space = forecasts.locator('[data-forecast="rootfs space"]')
    // About 3 days: 30 % to go at 10 % a day.
    // Computed from the host's history at the request, on a machine busy with the other lane's tests.
    await expect(space.getByTestId('forecast-verdict')).toHaveText(/^full in [23] d\b/, { timeout: 15_000 })
    await expect(space.getByTestId('forecast-verdict')).toHaveAttribute('title', /^Full at /)
    // Both windows see the same slope: either may be the sooner by a minute.
    await expect(space).toContainText(/(7-day|24-hour) trend/)
    await expect(space.getByRole('link', { name: 'rootfs space' })).toBeVisible()
    // Flat inodes, and memory jumping about: a verdict, but no time.
    await expect(forecasts.locator('[data-forecast="rootfs inodes"]').getByTestId('forecast-verdict')).toHaveText('not filling up')
    await expect(forecasts.locator('[data-forecast="agent1-host memory"]').getByTestId('forecast-verdict')).toHaveText(
      /^(no clear trend|not filling up)$/
    )
    await fitsWidth(page, size.width)
    await screenshot(page, `forecasts-host-${name}`)

    await space.getByRole('link', { name: 'rootfs space' }).click()
    const ofService = page.getByTestId('forecasts')
    await expect(ofService.getByRole('heading', { name: 'Forecasts of rootfs' })).toBeVisible()
    await expect(ofService.locator('[data-forecast]')).toHaveCount(2)
    await expect(ofService.locator('[data-forecast="rootfs space"]').getByTestId('forecast-verdict')).toHaveText(/^full in /)
    await fitsWidth(page, size.width)
    await screenshot(page, `forecasts-service-${name}`)
  })

  test(`the dashboard shows what is running out within 7 days (${name})`, async ({ page }) => {
    await page.setViewportSize(size)
    await logIn(page)
    const panel = page.getByTestId('running-out')
    await expect(panel.getByRole('heading', { name: 'Running out' })).toBeVisible()
    // The job stores forecasts every 10 minutes: this host's, once it has passed since the reports.
    const row = panel.locator('[data-forecast="rootfs space"]').filter({ hasText: HOST })
    await expect(panel.getByTestId('running-out-empty').or(row)).toBeVisible()
    if (await row.isVisible()) {
      await expect(row.getByTestId('forecast-verdict')).toHaveText(/^full in /)
      await expect(row).toContainText('rootfs space')
      await row.getByRole('link', { name: HOST }).click()
      await expect(page.getByTestId('host-detail')).toBeVisible()
    } else {
      await expect(panel.getByTestId('running-out-empty')).toHaveText('Nothing is running out within 7 days.')
    }
    await fitsWidth(page, size.width)
    await screenshot(page, `forecasts-dashboard-${name}`)
  })
}

test('a failing forecast request says so where the forecasts would be', async ({ page }) => {
  const failing = { status: 500, json: { error: 'the forecasts are out of order' } }
  await page.route('**/api/2/reports/forecasts/**', (route) => route.fulfill(failing))
  await logIn(page)
  // Answers other than 4xx are asked again twice, a second and two apart, before the error shows.
  const alert = page.getByTestId('running-out').getByRole('alert')
  await expect(alert).toContainText('The forecasts could not be loaded', { timeout: 10_000 })
  await expect(alert).toContainText('the forecasts are out of order')
  await page.goto(`/#/hosts/${hostId}`)
  await expect(page.getByTestId('forecasts').getByRole('alert')).toContainText('the forecasts are out of order', { timeout: 10_000 })
})
