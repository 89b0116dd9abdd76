import { expect, test } from '@playwright/test'

test('the console loads from the server under a strict CSP and shows its health', async ({ page }) => {
  const response = await page.goto('/')
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'")
  await expect(page.getByText(/Overseer \d+\.\d+\.\d+: ok/)).toBeVisible()
  await page.screenshot({ path: 'reports/screenshots/console-health.png' })
})
