// Readable by everyone: every screen, in both themes, on a desk and on a phone, has no violation of
// axe-core's WCAG 2.0/2.1 A and AA rules (contrast, names of controls, labels, structure). One page
// opens each screen once and checks it at both sizes in both themes; a failure lists every screen and
// rule at once.
// axe-core is injected once and run in the page: the screens are one document (hash routes), and
// @axe-core/playwright's AxeBuilder would inject its 600 KB again on every run.
import { readFileSync } from 'node:fs'
import type { AxeResults, RunOptions } from 'axe-core'
import { expect, test, type Page } from '@playwright/test'
import { logIn } from './support/console'
import { DESK, everyScreen, PHONE, visit, type Screen } from './support/routes'

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')
const WCAG_AA: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  resultTypes: ['violations']
}

let screens: Screen[] = []

test.beforeAll(async () => {
  screens = await everyScreen()
})

/** Each violation on the page as one line per rule, with up to three of its elements and why. */
async function violations(page: Page, where: string): Promise<string[]> {
  const results = await page.evaluate(
    (options) => (window as unknown as { axe: { run: (c: Document, o: RunOptions) => Promise<AxeResults> } }).axe.run(document, options),
    WCAG_AA
  )
  return results.violations.map((v) => {
    const nodes = v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.any[0]?.message ?? n.failureSummary ?? ''}`)
    return `${where} ${v.id} (${v.nodes.length}): ${v.help}\n    ${nodes.join('\n    ')}`
  })
}

/** The ×-only buttons of the events filters, which Mantine hides from assistive technology, are there by name. */
async function iconButtonsNamed(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Remove the service group filter' })).toBeVisible()
  await expect(
    page.getByRole('combobox', { name: 'Hosts', exact: true }).locator('..').getByRole('button', { name: 'Remove' })
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Clear all' })).toBeVisible()
}

test('every screen passes the WCAG 2.1 A and AA rules in both themes, on a desk and on a phone', async ({ page }) => {
  test.setTimeout(240_000)
  const found: string[] = []
  // The login page is the server's own (src/server/http/login-page.ts), not a console route.
  await page.goto('/')
  await page.evaluate(AXE_SOURCE)
  for (const size of [DESK, PHONE]) {
    await page.setViewportSize(size)
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme })
      found.push(...(await violations(page, `login (${size.width} px, ${colorScheme})`)))
    }
  }
  await logIn(page)
  await page.evaluate(AXE_SOURCE)
  // Colours are checked as they end, not halfway through a transition after the scheme changed.
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' })
  // Each screen is opened once and checked four times: the size and the colour scheme change in place.
  for (const screen of screens) {
    await page.setViewportSize(DESK)
    await page.emulateMedia({ colorScheme: 'light' })
    await visit(page, screen)
    if (screen.name === 'events-filtered') await iconButtonsNamed(page)
    for (const size of [DESK, PHONE]) {
      await page.setViewportSize(size)
      // The navigation folds behind its burger on a phone: the layout has followed the new width.
      await expect(page.getByRole('button', { name: 'Toggle navigation' })).toBeVisible({ visible: size === PHONE })
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme })
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme)
        found.push(...(await violations(page, `${screen.name} (${size.width} px, ${colorScheme})`)))
      }
    }
  }
  expect(found, found.join('\n')).toEqual([])
})
