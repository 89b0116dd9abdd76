// Every screen but the hosts list (its own spec) on a phone, 390 × 844: nothing wider than the screen,
// the header's account menu within reach, and the events filters folded away until asked for.
import { expect, test, type Page } from '@playwright/test'
import { loginAs } from '../test/support/api-client'
import { ADMIN, BASE_URL, logIn, report } from './support/console'

const AGENT = 'a6a60000000000000000000000000001'
// Long labels without hyphens: a name that only breaks after its dots.
const HOST = 'phonehostwithlongname.datacenterwest.example.internal'
const PHONE = { width: 390, height: 844 }
let hostId = 0
let eventId = 0

test.beforeAll(async () => {
  await report('03-event-process-not-running', AGENT, HOST)
  const admin = await loginAs(BASE_URL, ADMIN.uname, ADMIN.password)
  const hosts = (await admin.get('/api/2/status/hosts/list', { hostpattern: 'phonehostwithlongname' })).json as {
    records: { id: number }[]
  }
  hostId = hosts.records[0].id
  const events = (await admin.get('/api/2/reports/events/list', { hostid: hostId })).json as { records: { id: number }[] }
  eventId = events.records[0].id
})

async function fitsThePhone(page: Page, name: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible()
  await page.waitForLoadState('networkidle')
  await page.screenshot({ path: `shots/phone-${name}.png`, fullPage: true })
  // Soft: one run names every screen that does not fit.
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  expect.soft(width, `${name} is ${width} px wide`).toBeLessThanOrEqual(PHONE.width)
  const account = await page.getByRole('button', { name: `Account of ${ADMIN.uname}` }).boundingBox()
  expect.soft(account!.x + account!.width, `${name}: the account menu is off-screen`).toBeLessThanOrEqual(PHONE.width)
}

test('no screen is wider than a phone, and the account menu stays in reach', async ({ page }) => {
  test.setTimeout(90_000)
  await page.setViewportSize(PHONE)
  await logIn(page)
  const screens: [string, string][] = [
    ['dashboard', '/'],
    ['host', `/hosts/${hostId}`],
    ['events', '/events'],
    ['event', `/events/${eventId}`],
    ['uptime', '/uptime'],
    ['uptime-host', `/uptime/${hostId}`],
    ['admin-hosts', '/admin/hosts'],
    ['admin-host', `/admin/hosts/${hostId}`],
    ['admin-users', '/admin/users'],
    ['admin-roles', '/admin/roles'],
    ['admin-groups', '/admin/groups'],
    ['admin-alerts', '/admin/alerts'],
    ['admin-rules', '/admin/alerts?tab=rules'],
    ['admin-mutes', '/admin/alerts?tab=mutes'],
    ['admin-deliveries', '/admin/alerts?tab=deliveries'],
    ['settings', '/settings']
  ]
  for (const [name, path] of screens) {
    await page.goto(`/#${path}`)
    await fitsThePhone(page, name)
  }
})

test('on a phone the event filters fold away and open on request', async ({ page }) => {
  await page.setViewportSize(PHONE)
  await logIn(page)
  await page.goto('/#/events')
  const toggle = page.getByRole('button', { name: /^Filters/ })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(page.getByRole('combobox', { name: 'Hosts', exact: true })).toBeHidden()
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByRole('combobox', { name: 'Hosts', exact: true })).toBeVisible()
  // Unfolded to the last filter (the fold animates its height).
  const clear = page.getByRole('button', { name: 'Clear filters' })
  await expect
    .poll(async () => {
      const [button, fold] = await Promise.all([
        clear.boundingBox(),
        page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`).boundingBox()
      ])
      return button!.y + button!.height <= fold!.y + fold!.height
    })
    .toBe(true)
  await page.screenshot({ path: 'shots/phone-events-filters.png', fullPage: true })
})
