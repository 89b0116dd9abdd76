// Import from M/Monit in the console, on a server of its own (a first run: no user yet, so nothing is
// shared with the other specs): setup offers the import; after login the form refuses a missing file
// with the server's reason, counts an M/Monit-shaped SQLite database (dry run) before it offers the
// import, imports it and reports in words. Administration's screen at phone width: a second M/Monit
// into the now non-empty server is refused, the merge offered, and imported.
import { expect, test, type Page } from '@playwright/test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { removeDir, startBuiltServer, type BuiltServer } from '../test/support/built-server'
import { createMMonitSqlite } from '../test/support/mmonit-database'
import { freePort } from '../test/support/ports'

const OWNER = { uname: 'owner', password: 'owner-secret-1' }
let server: BuiltServer
let dir: string

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'overseer-e2e-import-'))
  createMMonitSqlite(join(dir, 'mmonit.db'))
  createMMonitSqlite(join(dir, 'second-mmonit.db'))
  server = await startBuiltServer()
})
test.afterAll(async () => {
  await server.stop()
  removeDir(server.dataDir)
  rmSync(dir, { recursive: true, force: true })
})

const path = (page: Page) => page.getByLabel(/Path of M\/Monit's database/)
const importButton = (page: Page) => page.getByRole('button', { name: 'Import', exact: true })

test('first run: setup offers the import; a dry run, then the import and its report (desktop)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(`${server.baseUrl}/`)
  await page.getByLabel('User name').fill(OWNER.uname)
  await page.getByLabel(/^Password/).fill(OWNER.password)
  await page.getByLabel('Repeat the password').fill(OWNER.password)
  await page.getByRole('button', { name: 'Next' }).click()
  await page.getByLabel('Collector user name').fill('agents')
  await page.getByLabel('Collector password').fill('agentpass123')
  await page.getByRole('button', { name: 'Create both accounts' }).click()
  await expect(page.getByText('Coming from M/Monit?')).toBeVisible()
  await page.screenshot({ path: 'shots/import-setup-offer.png', fullPage: true })
  await page.getByRole('link', { name: 'Import from M/Monit' }).click()

  // Through the normal login, straight on to the import in its first-run form.
  await page.getByLabel('User name').fill(OWNER.uname)
  await page.getByLabel('Password').fill(OWNER.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('heading', { name: 'Import from M/Monit' })).toBeVisible()
  await expect(page.getByText('Bring your M/Monit installation over')).toBeVisible()
  await expect(page.getByLabel(/^Merge into the data/)).toBeChecked()

  // Nothing to import until a dry run has counted this source; a missing file is told in the server's words.
  await path(page).fill(join(dir, 'missing', 'mmonit.db'))
  await expect(importButton(page)).toBeDisabled()
  await page.getByRole('button', { name: 'Dry run' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'The import could not start' })).toContainText('cannot open as an SQLite database')
  await expect(page.getByRole('alert').filter({ hasText: 'The import could not start' })).toContainText('cannot be imported as it is')

  // A database server that cannot be reached: the server's reason and what to check, without the password.
  await page.getByText('PostgreSQL', { exact: true }).click()
  await page.getByLabel('Database server and database').fill('127.0.0.1')
  await page.getByRole('button', { name: 'Dry run' }).click()
  await expect(page.getByText('Name the database after the server: host:port/database')).toBeVisible()
  await page.getByLabel('Database server and database').fill(`127.0.0.1:${await freePort()}/mmonit`)
  await page.getByLabel('Database user').fill('reader')
  await page.getByLabel('Password', { exact: true }).fill('never-shown-1')
  await page.getByRole('button', { name: 'Dry run' }).click()
  const unreachable = page.getByRole('alert').filter({ hasText: 'The import could not start' })
  await expect(unreachable).toContainText('could not be reached or read')
  await expect(unreachable).toContainText('cannot read the M/Monit database')
  await expect(page.locator('body')).not.toContainText('never-shown-1')
  await page.screenshot({ path: 'shots/import-unreachable.png', fullPage: true })

  await page.getByText('SQLite file', { exact: true }).click()
  await path(page).fill(join(dir, 'mmonit.db'))
  await page.getByRole('button', { name: 'Dry run' }).click()
  const report = page.getByTestId('import-report')
  await expect(report).toContainText('Dry run: nothing was written')
  await expect(report.getByRole('list', { name: 'Per kind' })).toContainText('3 hosts')
  await page.screenshot({ path: 'shots/import-dry-run.png', fullPage: true })

  await importButton(page).click()
  await expect(report).toContainText('Imported, counts verified', { timeout: 30_000 })
  await expect(report.getByRole('list', { name: 'Per kind' })).toContainText('3 hosts imported of 3')
  await expect(report.getByRole('list', { name: 'Left out' })).toContainText('history keeps numbers only')
  await page.screenshot({ path: 'shots/import-report-desktop.png', fullPage: true })

  // The imported hosts are the console's now.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Hosts', exact: true }).click()
  await expect(page.getByText('host-1.example.net').first()).toBeVisible()
})

test('Administration at phone width: a second M/Monit is refused until merged, then imported', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`${server.baseUrl}/`)
  await page.getByLabel('User name').fill(OWNER.uname)
  await page.getByLabel('Password').fill(OWNER.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.goto(`${server.baseUrl}/#/admin/import`)
  await expect(page.getByRole('heading', { name: 'Import from M/Monit' })).toBeVisible()
  // The last import's report stays on show until the next one.
  await expect(page.getByTestId('import-report')).toContainText('Imported, counts verified')

  await path(page).fill(join(dir, 'second-mmonit.db'))
  await page.getByRole('button', { name: 'Dry run' }).click()
  await expect(page.getByTestId('import-report')).toContainText('Dry run: nothing was written')
  await importButton(page).click()
  const refused = page.getByRole('alert').filter({ hasText: 'The import could not start' })
  await expect(refused).toContainText('already holds data')
  await expect(refused).not.toContainText('--merge')
  await page.screenshot({ path: 'shots/import-phone-refused.png', fullPage: true })
  await refused.getByRole('button', { name: 'Merge into the existing data' }).click()
  await expect(page.getByLabel(/^Merge into the data/)).toBeChecked()
  await importButton(page).click()
  await expect(page.getByTestId('import-report')).toContainText('Imported, counts verified', { timeout: 30_000 })
  await page.screenshot({ path: 'shots/import-phone-report.png', fullPage: true })
  // Usable at 390 px: nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
})
