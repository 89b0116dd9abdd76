// Nothing before a session: from the first page of a fresh server through setup to the login form, the
// console opens no live stream, loads no data and logs no error; once logged in, the stream opens.
// This spec's own server: no user at first, its own port and data dir.
import { expect, test, type Page } from '@playwright/test'
import { removeDir, startBuiltServer, type BuiltServer } from '../test/support/built-server'
import { E2E_PORT } from './support/console'

let server: BuiltServer
test.beforeAll(async () => {
  server = await startBuiltServer({ args: ['--port', String(E2E_PORT + 2)] })
})
test.afterAll(async () => {
  await server.stop()
  removeDir(server.dataDir)
})

/** Console errors, failed requests, and every API request the page makes. */
function watch(page: Page) {
  const seen = { errors: [] as string[], failed: [] as string[], api: [] as string[] }
  page.on('console', (m) => {
    if (m.type() === 'error') seen.errors.push(m.text())
  })
  page.on('pageerror', (e) => seen.errors.push(e.message))
  page.on('requestfailed', (r) => seen.failed.push(`${r.url()} ${r.failure()?.errorText}`))
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) seen.api.push(new URL(r.url()).pathname)
  })
  return seen
}

test('setup and the login form run without a live stream, data requests or console errors', async ({ page }) => {
  const seen = watch(page)
  await page.goto(`${server.baseUrl}/`)
  await expect(page.getByRole('heading', { name: 'Welcome to Overseer' })).toBeVisible()
  await page.getByLabel(/^Password/).fill('owner-secret-1')
  await page.getByLabel('Repeat the password').fill('owner-secret-1')
  await page.getByRole('button', { name: 'Next' }).click()
  await page.getByRole('button', { name: 'Create both accounts' }).click()
  await expect(page.getByText('Setup is done')).toBeVisible()
  await page.getByRole('link', { name: 'Log in' }).click()
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
  const errorsBeforeLogin = [...seen.errors]
  // A failed attempt keeps the user name (the browser logs the answer's 401 status, which is M/Monit's).
  await page.getByLabel('User name').fill('admin')
  await page.getByLabel('Password').fill('wrong-password')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password')
  await expect(page.getByLabel('User name')).toHaveValue('admin')
  await expect(page.getByLabel('Password')).toBeFocused()

  // Before the session: the first page asked for its profile (which sent it to setup), then only setup.
  expect(seen.api).not.toContain('/api/2/live')
  expect(seen.api.filter((path) => !path.startsWith('/api/2/setup/'))).toEqual(['/api/2/profile/get'])
  expect(errorsBeforeLogin).toEqual([])
  expect(seen.failed).toEqual([])

  await page.getByLabel('Password').fill('owner-secret-1')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.locator('[data-live="live"]')).toBeVisible()
  expect(seen.api).toContain('/api/2/live')
  expect(seen.errors.filter((e) => !e.includes('401 (Unauthorized)'))).toEqual([])
})
