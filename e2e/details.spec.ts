// The details of issue 14 at 1280 × 800: PIDs as numbers to copy, the chosen service row's badges
// readable, host names wrapping after a dot, the user form naming every invalid field at once, adding
// every matching host to a group, the "no access" page, and the login page in the console's look.
import { expect, test, type Page } from '@playwright/test'
import { loginAs, type ApiClient } from '../test/support/api-client'
import { ADMIN, BASE_URL, logIn, report } from './support/console'

const LONG = { agent: 'a9a90000000000000000000000000001', name: 'det-a-rather-long-host-name.with.several.labels.example.internal' }
const WEB = ['a9a90000000000000000000000000002', 'a9a90000000000000000000000000003']
const VIEWER = { uname: 'detviewer', password: 'detviewer-pass' }
let admin: ApiClient

test.beforeAll(async () => {
  await report('03-event-process-not-running', LONG.agent, LONG.name)
  await report('02-status-heartbeat', WEB[0], 'det-web-1')
  await report('02-status-heartbeat', WEB[1], 'det-web-2')
  admin = await loginAs(BASE_URL, ADMIN.uname, ADMIN.password)
})

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
})

async function hostId(name: string): Promise<number> {
  const list = (await admin.get('/api/2/status/hosts/list', { hostpattern: name })).json as { records: { id: number; hostname: string }[] }
  return list.records.find((h) => h.hostname === name)!.id
}

/** The characters after which the element's text moves to a new line. */
function lineBreaksAfter(page: Page, selector: string): Promise<string[]> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const breaks: string[] = []
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      let previous: { char: string; top: number } | undefined
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.textContent!.length; i++) {
          const range = document.createRange()
          range.setStart(node, i)
          range.setEnd(node, i + 1)
          const top = range.getBoundingClientRect().top
          if (previous && top > previous.top + 2) breaks.push(previous.char)
          previous = { char: node.textContent![i], top }
        }
      }
      return breaks
    })
}

test("PIDs without separators on a service's page", async ({ page }) => {
  await logIn(page)
  await page.goto(`/#/hosts/${await hostId('det-web-1')}`)
  await page.getByTestId('services').getByRole('link', { name: 'sleeper' }).click()
  await expect(page.getByTestId('latest-figures')).toContainText('PID')
  await expect(page.getByTestId('latest-figures')).toContainText('8382')
  await expect(page.getByTestId('latest-figures')).not.toContainText('8,382')
  await page.screenshot({ path: 'shots/details-service.png' })
})

test('a long host name wraps after its dots in the events table', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await logIn(page)
  await page.goto(`/#/events`)
  const cell = page.getByRole('button', { name: `Only events of host ${LONG.name}` })
  await expect(cell).toBeVisible()
  const breaks = await lineBreaksAfter(page, `[aria-label="Only events of host ${LONG.name}"]`)
  expect(breaks.length).toBeGreaterThan(0)
  for (const char of breaks) expect(['.', '-']).toContain(char)
  await page.screenshot({ path: 'shots/details-long-host-name.png' })
})

test('the user form names every invalid field at once, before sending anything', async ({ page }) => {
  await logIn(page)
  await page.goto('/#/admin/users')
  await page.getByRole('button', { name: 'New user' }).click()
  const dialog = page.getByRole('dialog', { name: 'New user' })
  let posted = false
  page.on('request', (r) => {
    if (r.url().includes('admin/users/create')) posted = true
  })
  await dialog.getByLabel('User name').fill('has:colon')
  await dialog.getByRole('button', { name: 'Create user' }).click()
  await expect(dialog.getByText("must not contain ':'")).toBeVisible()
  // The password's: the full name is optional.
  await expect(dialog.getByText('must not be empty')).toHaveCount(1)
  await expect(dialog.getByText('choose at least one role')).toBeVisible()
  expect(posted).toBe(false)
  await page.screenshot({ path: 'shots/details-user-form-errors.png' })
})

test('every host matching a name joins a group in one go', async ({ page }) => {
  await logIn(page)
  await page.goto('/#/admin/groups')
  await page.getByLabel('New group').fill('det-web')
  await page.getByRole('button', { name: 'Create group' }).click()
  const card = page.locator('[data-group="det-web"]')
  await card.getByRole('textbox', { name: 'Hosts to add to det-web' }).fill('det-web-')
  await card.getByRole('button', { name: 'Add 2 matching hosts' }).click()
  await expect(card.getByText('Hosts (2)')).toBeVisible()
  await card.getByRole('textbox', { name: 'Hosts to add to det-web' }).fill('det-web-')
  await expect(card.getByRole('button', { name: 'Add 0 matching hosts' })).toBeDisabled()
  await page.screenshot({ path: 'shots/details-group-add-matching.png' })
})

test('a user who is no administrator gets a "no access" page at an administration address', async ({ page }) => {
  const csrf = { CSRFToken: await admin.csrfToken() }
  const role = await admin.post('/api/2/admin/roles/create', { name: 'det-nothing', admin: false, active: true, rolerowscount: 0 }, csrf)
  expect(role.status, role.text).toBe(200)
  const user = await admin.post(
    '/api/2/admin/users/create',
    { uname: VIEWER.uname, password: VIEWER.password, fullname: 'Det Viewer', roleid: (role.json as { id: number }).id },
    csrf
  )
  expect(user.status, user.text).toBe(200)
  const adminRequests: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('/api/2/admin/')) adminRequests.push(r.url())
  })
  await logIn(page, VIEWER.uname, VIEWER.password)
  await page.goto('/#/admin/users')
  await expect(page.getByRole('heading', { name: 'No access' })).toBeVisible()
  expect(adminRequests).toEqual([])
  await page.screenshot({ path: 'shots/details-no-access.png' })
})

test('the login page looks like the console, on a desk and on a phone', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'Overseer', level: 1 })).toBeVisible()
  const button = page.getByRole('button', { name: 'Log in' })
  // The console's primary colour (app/theme.ts: teal's darkest shade, white on it at 5.3:1).
  await expect(button).toHaveCSS('background-color', 'rgb(8, 122, 87)')
  await page.screenshot({ path: 'shots/login-desktop.png' })
  await page.setViewportSize({ width: 390, height: 844 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.screenshot({ path: 'shots/login-phone.png' })
})
