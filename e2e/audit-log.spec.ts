// The audit log screen (issue 26): an administrator's change in the console is listed with who made it
// and from where, found again by the filters, and exported as CSV with the same filters.
import { expect, test } from '@playwright/test'
import { logIn, screenshot } from './support/console'

test('a change made in the console is in the audit log, filtered, and in its CSV', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await logIn(page)
  await page.goto('/#/admin/groups')
  await page.getByLabel('New group').fill('e2e audited')
  await page.getByRole('button', { name: 'Create group' }).click()
  await expect(page.locator('[data-group="e2e audited"]')).toBeVisible()

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Audit log' }).click()
  const table = page.getByRole('table', { name: 'Audit log' })
  const row = table.getByRole('row').filter({ hasText: 'e2e audited' })
  await expect(row).toContainText('group.create')
  await expect(row).toContainText('admin')
  await expect(row).toContainText('127.0.0.1')
  await expect(table.getByRole('row').filter({ hasText: 'login' }).first()).toBeVisible()

  const filters = page.getByRole('form', { name: 'Audit log filters' })
  await filters.getByLabel('Action').fill('group.create')
  await filters.getByLabel('Text').fill('e2e audited')
  await filters.getByRole('button', { name: 'Filter' }).click()
  await expect(page).toHaveURL(/action=group.create/)
  await expect(table.getByRole('row')).toHaveCount(2)
  await expect(table.getByRole('row').nth(1)).toContainText('e2e audited')
  await screenshot(page, 'admin-audit')

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()])
  expect(download.suggestedFilename()).toBe('audit-log.csv')
  const csv = await (await download.createReadStream()).toArray()
  const lines = Buffer.concat(csv).toString().trim().split('\r\n')
  expect(lines[0]).toBe('id,at,time,userId,uname,address,action,target,detail')
  expect(lines).toHaveLength(2)
  expect(lines[1]).toContain('group.create')

  // A phone: the table scrolls sideways inside its frame, the filters wrap.
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeInViewport()
  await expect(filters.getByRole('button', { name: 'Filter' })).toBeVisible()
  await screenshot(page, 'admin-audit-phone')
})
