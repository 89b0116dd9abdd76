import { expect, test } from '@playwright/test'
import { screenshot } from './support/console'

test('log in through the M/Monit login form, then the console loads under a strict CSP', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
  await screenshot(page, 'login')

  await page.getByLabel('User name').fill('admin')
  await page.getByLabel('Password').fill('wrong')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password')

  await page.getByLabel('User name').fill('admin')
  await page.getByLabel('Password').fill('e2eadmin')
  // Login answers 302 back to the page first asked for (/), which now serves the console.
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().resourceType() === 'document' && r.status() === 200),
    page.getByRole('button', { name: 'Log in' }).click()
  ])
  expect(response.headers()['content-security-policy']).toContain("script-src 'self'")
  const nav = page.getByRole('navigation', { name: 'Main navigation' })
  await expect(nav.getByRole('link', { name: 'Users' })).toBeVisible()
  await expect(page.locator('[data-live="live"]')).toBeVisible()

  await page.getByRole('button', { name: 'Account of admin' }).click()
  await page.getByRole('menuitem', { name: 'Log out' }).click()
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
})
