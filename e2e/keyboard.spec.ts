// A keyboard-only walk at 1280 × 800: the skip link comes first and jumps to the content, the header and
// navigation follow in reading order, every control shows where the focus is, and a screen can be
// reached and used without a mouse.
import { expect, test, type Page } from '@playwright/test'
import { logIn, report } from './support/console'

test.beforeAll(async () => {
  await report('03-event-process-not-running', 'a7a70000000000000000000000000001', 'kbd-host')
})

/** The focused element's accessible name (or text) and whether a focus ring is drawn around it. */
async function focused(page: Page): Promise<{ name: string; ring: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement
    if (el === document.body) return { name: '(page)', ring: false }
    const style = getComputedStyle(el)
    const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none'
    const name = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? ''
    return { name: name.trim(), ring }
  })
}

async function tab(page: Page): Promise<{ name: string; ring: boolean }> {
  await page.keyboard.press('Tab')
  return focused(page)
}

test('tab order, skip link and focus rings on the dashboard, then to an event by keyboard alone', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await logIn(page)
  await expect(page.getByTestId('host-summary')).toBeVisible()
  await page.locator('body').focus()

  const skip = await tab(page)
  expect(skip).toEqual({ name: 'Skip to content', ring: true })
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeInViewport()
  await page.screenshot({ path: 'shots/keyboard-skip-link.png' })

  // Without skipping: the header's controls, then the navigation in its order.
  const order: string[] = []
  for (let i = 0; i < 4; i++) {
    const stop = await tab(page)
    expect(stop.ring, `${stop.name} shows no focus`).toBe(true)
    order.push(stop.name)
  }
  expect(order).toEqual(['Switch to dark theme', 'Account of admin', 'Dashboard', 'Hosts'])

  // Skipping: the next stop is the first control of the content, a summary card, with its ring.
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Shift+Tab')
  expect((await focused(page)).name).toBe('Skip to content')
  await page.keyboard.press('Enter')
  const card = await tab(page)
  expect(card.name).toMatch(/^\d+ \S.* hosts$/)
  expect(card.ring).toBe(true)
  await page.screenshot({ path: 'shots/keyboard-dashboard-card.png' })
  // Every control of the dashboard shows its focus, to the end of the page.
  const stops: string[] = []
  for (let stop = await tab(page); stop.name !== '(page)'; stop = await tab(page)) {
    expect(stop.ring, `${stop.name} shows no focus`).toBe(true)
    stops.push(stop.name)
  }
  expect(stops).toEqual(expect.arrayContaining(['All hosts', 'kbd-host', 'All events']))

  // To the events and into one event, keys only.
  await page.locator('body').focus()
  for (let stop = await tab(page); stop.name !== 'Events'; stop = await tab(page)) {
    /* on to the Events link */
  }
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: 'Events', level: 2 })).toBeVisible()
  const firstEvent = page.getByRole('table', { name: 'Events' }).getByRole('link').first()
  await firstEvent.focus()
  expect((await focused(page)).ring).toBe(true)
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/#\/events\/\d+/)
})
