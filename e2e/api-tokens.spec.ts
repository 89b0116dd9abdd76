// API tokens in the console (issue 26): made under Settings and shown once, then used by a script (a
// fetch from the test, with nothing but the token), listed with its use, and revoked with a confirmation.
import { expect, test } from '@playwright/test'
import { BASE_URL, logIn, pickOption, screenshot } from './support/console'

const withToken = (token: string, path: string, init: RequestInit = {}) =>
  fetch(`${BASE_URL}${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...init.headers } })

test('a token made in the console works for a script until it is revoked', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await logIn(page)
  await page.goto('/#/settings')
  await page.getByLabel('Name', { exact: true }).fill('e2e dashboard')
  await pickOption(page, 'Expires', 'In 30 days')
  await page.getByRole('button', { name: 'Create token' }).click()
  await expect(page.getByText('Copy it now: you will not see it again.')).toBeVisible()
  const token = (await page.getByTestId('new-api-token').textContent())!.trim()
  expect(token).toMatch(/^ovs_[A-Za-z0-9_-]{43}$/)
  await screenshot(page, 'settings-api-token-made')

  // A script: read-only, so it reads hosts and metrics but changes nothing.
  expect((await withToken(token, '/api/2/status/hosts/list')).status).toBe(200)
  expect((await withToken(token, '/metrics')).status).toBe(200)
  const change = await withToken(token, '/api/2/settings/update', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'sessiontimeout=600'
  })
  expect(change.status).toBe(403)

  await page.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByTestId('new-api-token')).toBeHidden()
  await page.reload()
  const own = page.getByRole('table', { name: 'Your API tokens' })
  const row = own.getByRole('row', { name: /e2e dashboard/ })
  await expect(row).toContainText(token.slice(0, 12))
  await expect(row).toContainText('read-only')
  await expect(row).not.toContainText('never')
  await expect(page.getByRole('table', { name: 'API tokens of all users' }).getByRole('row', { name: /e2e dashboard/ })).toContainText(
    'admin'
  )
  await screenshot(page, 'settings-api-tokens')
  await page.setViewportSize({ width: 390, height: 844 })
  // On a phone each token is a card, its Revoke button in reach.
  const card = page.getByRole('list', { name: 'Your API tokens' }).getByRole('listitem').filter({ hasText: 'e2e dashboard' })
  await card.scrollIntoViewIfNeeded()
  await expect(card.getByRole('button', { name: 'Revoke e2e dashboard' })).toBeInViewport()
  await screenshot(page, 'settings-api-tokens-phone')
  await page.setViewportSize({ width: 1280, height: 800 })

  await row.getByRole('button', { name: 'Revoke e2e dashboard' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click()
  await expect(own.getByRole('row', { name: /e2e dashboard/ })).toHaveCount(0)
  const refused = await withToken(token, '/api/2/status/hosts/list')
  expect(refused.status).toBe(401)
  expect(await refused.json()).toEqual({ error: 'the API token is not valid (unknown, revoked or expired)' })
})
