// First-run setup in the browser: a server started with no user at all (its own data dir and port,
// not the config's server), the setup screen from /, administrator and collector created, the monitrc
// line shown, then the normal login and logout.
import { expect, test } from '@playwright/test'
import { removeDir, startBuiltServer, type BuiltServer } from '../test/support/built-server'
import { E2E_PORT, screenshot } from './support/console'

let server: BuiltServer
test.beforeAll(async () => {
  server = await startBuiltServer({ args: ['--port', String(E2E_PORT + 3)] })
})
test.afterAll(async () => {
  await server.stop()
  removeDir(server.dataDir)
})

test('first-run setup creates the administrator and the collector, then the administrator logs in and out', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  // / serves the console; finding no session it lands on the setup screen.
  await page.goto(`${server.baseUrl}/`)
  await expect(page.getByRole('heading', { name: 'Welcome to Overseer' })).toBeVisible()
  await expect(page).toHaveURL(/#\/setup$/)

  // The browser checks first, every field at once with its reason; nothing is sent meanwhile.
  await page.getByLabel('User name').fill('')
  await page.getByLabel(/^Password/).fill('short')
  await page.getByLabel('Repeat the password').fill('shorter')
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page.getByText('must not be empty')).toBeVisible()
  await expect(page.getByText('must be at least 8 characters')).toBeVisible()
  await expect(page.getByText('the two passwords differ')).toBeVisible()
  await page.screenshot({ path: 'shots/setup-all-errors.png' })
  await page.getByLabel('User name').fill('owner')
  await page.getByLabel('Full name').fill('Olivia Owner')
  await page.getByLabel(/^Password/).fill('owner-secret-1')
  await page.getByLabel('Repeat the password').fill('owner-secret-1')
  await screenshot(page, 'setup-administrator')
  await page.getByRole('button', { name: 'Next' }).click()

  await page.getByLabel('Collector user name').fill('agents')
  // The same rules as the server's, so the clash shows next to the field before anything is sent.
  await page.getByLabel('Collector user name').fill('owner')
  await page.getByLabel('Collector password').fill('agentpass123')
  await page.getByRole('button', { name: 'Create both accounts' }).click()
  await expect(page.getByText("must differ from the administrator's name")).toBeVisible()
  await page.getByLabel('Collector user name').fill('agents')
  await screenshot(page, 'setup-collector')
  await page.getByRole('button', { name: 'Create both accounts' }).click()

  await expect(page.getByText('Setup is done')).toBeVisible()
  await expect(page.getByTestId('monitrc-line')).toHaveText(`set mmonit http://agents:agentpass123@127.0.0.1:${server.port}/collector`)
  // The rest of the agent's monitrc, each line with why: the event queue, and the httpd actions need.
  const settings = page.getByTestId('agent-settings')
  await expect(settings).toContainText('set eventqueue basedir /var/lib/monit/events slots 1000')
  await expect(settings).toContainText('while this server cannot be reached')
  await expect(settings).toContainText('set httpd port 2812')
  await expect(settings).toContainText('allow 127.0.0.1')
  await expect(settings).toContainText(/allow admin:[A-Za-z0-9]{16}/)
  await expect(settings).toContainText('uses it for actions')
  await expect(page.getByRole('button', { name: 'Copy', exact: true })).toBeVisible()
  await screenshot(page, 'setup-done')

  // The normal login form from now on.
  await page.getByRole('link', { name: 'Log in' }).click()
  await page.getByLabel('User name').fill('owner')
  await page.getByLabel('Password').fill('owner-secret-1')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Users' })).toBeVisible()
  await page.getByRole('button', { name: 'Account of owner' }).click()
  await page.getByRole('menuitem', { name: 'Log out' }).click()
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()

  // Setup is over: the same address now answers the login form.
  await page.goto(`${server.baseUrl}/#/setup`)
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
})
