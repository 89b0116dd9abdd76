import { expect, test, type Page } from '@playwright/test'
import { POSTGRES_SMOKE, screenshot } from './support/console'

const sessionId = async (page: Page) => (await page.context().cookies()).find((c) => c.name === 'zsessionid')?.value

test('log in through the M/Monit login form, then the console loads under a strict CSP', POSTGRES_SMOKE, async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
  await screenshot(page, 'login')

  await page.getByLabel('User name').fill('admin')
  await page.getByLabel('Password').fill('wrong')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password')

  await page.getByLabel('User name').fill('admin')
  await page.getByLabel('Password').fill('e2eadmin')
  const anonymous = await sessionId(page)
  // Login answers 302 back to the page first asked for (/), which now serves the console.
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().resourceType() === 'document' && r.status() === 200),
    page.getByRole('button', { name: 'Log in' }).click()
  ])
  expect(response.headers()['content-security-policy']).toContain("script-src 'self'")
  // A browser's login moves to a new session id: one planted before it never becomes logged in.
  expect(await sessionId(page)).not.toBe(anonymous)
  const nav = page.getByRole('navigation', { name: 'Main navigation' })
  await expect(nav.getByRole('link', { name: 'Users' })).toBeVisible()
  await expect(page.locator('[data-live="live"]')).toBeVisible()

  await page.getByRole('button', { name: 'Account of admin' }).click()
  // The console logs out by a POST with the CSRF token; the session is over, not just the page left.
  const [logout] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith('/login/logout.csp')),
    page.getByRole('menuitem', { name: 'Log out' }).click()
  ])
  expect(logout.method()).toBe('POST')
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
})
