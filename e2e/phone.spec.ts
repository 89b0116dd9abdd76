// Every screen on a phone, 390 × 844: nothing scrolls sideways, neither the page nor a part of it (a
// table in its own scroll box hides its last columns just as well), the header's account menu within
// reach, the events filters folded away until asked for; and the on-call path by touch alone, on a
// real Monit agent: from the dashboard to the failing host, restart its service, mute the host.
import { expect, test, type Page } from '@playwright/test'
import { startAgents, type AgentFleet } from '../test/support/monit-agents'
import { ADMIN, BASE_URL, COLLECTOR_AUTH, logIn } from './support/console'
import { everyScreen, PHONE, visit, type Screen } from './support/routes'

let screens: Screen[] = []

test.beforeAll(async () => {
  screens = await everyScreen()
})

/** The page's width, and every element that scrolls sideways (named by its tag, test id or label). */
function sidewaysScrolling(): { width: number; scrollers: string[] } {
  const scrollers: string[] = []
  for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
    const { overflowX } = getComputedStyle(el)
    if ((overflowX === 'auto' || overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
      const inner = el.querySelector('[data-testid], [aria-label]')
      scrollers.push(
        `${el.tagName.toLowerCase()} holding ${inner?.getAttribute('data-testid') ?? inner?.getAttribute('aria-label') ?? el.textContent?.slice(0, 40)} (${el.scrollWidth} px)`
      )
    }
  }
  return { width: document.documentElement.scrollWidth, scrollers }
}

async function fitsThePhone(page: Page, name: string): Promise<void> {
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `reports/screenshots/phone-${name}.png`, fullPage: true })
  // Soft: one run names every screen that does not fit.
  const { width, scrollers } = await page.evaluate(sidewaysScrolling)
  expect.soft(width, `${name} is ${width} px wide`).toBeLessThanOrEqual(PHONE.width)
  expect.soft(scrollers, `${name} scrolls sideways`).toEqual([])
  const account = await page.getByRole('button', { name: `Account of ${ADMIN.uname}` }).boundingBox()
  expect.soft(account!.x + account!.width, `${name}: the account menu is off-screen`).toBeLessThanOrEqual(PHONE.width)
}

test('no screen scrolls sideways on a phone, and the account menu stays in reach', async ({ page }) => {
  test.setTimeout(90_000)
  await page.setViewportSize(PHONE)
  await logIn(page)
  for (const screen of screens) {
    await visit(page, screen)
    await fitsThePhone(page, screen.name)
  }
})

test('on a phone the event filters fold away and open on request', async ({ page }) => {
  await page.setViewportSize(PHONE)
  await logIn(page)
  await page.goto('/#/events')
  const toggle = page.getByRole('button', { name: /^Filters/ })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await expect(page.getByRole('combobox', { name: 'Hosts', exact: true })).toBeHidden()
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByRole('combobox', { name: 'Hosts', exact: true })).toBeVisible()
  // Unfolded to the last filter (the fold animates its height).
  const clear = page.getByRole('button', { name: 'Clear filters' })
  await expect
    .poll(async () => {
      const [button, fold] = await Promise.all([
        clear.boundingBox(),
        page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`).boundingBox()
      ])
      return button!.y + button!.height <= fold!.y + fold!.height
    })
    .toBe(true)
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: 'reports/screenshots/phone-events-filters.png', fullPage: true })
})

test.describe('on call by touch', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: PHONE })
  let fleet: AgentFleet | undefined

  test.afterAll(async () => {
    await fleet?.shutdown()
  })

  test('from the dashboard to the failing host, restart its service and mute the host, all by tapping', async ({ page }) => {
    test.setTimeout(90_000)
    // The sleeper stays failed when killed (no automatic restart): the restart is the phone's to do.
    fleet = await startAgents({
      collectorUrl: `http://${COLLECTOR_AUTH}@127.0.0.1:${new URL(BASE_URL).port}/collector`,
      count: 1,
      namePrefix: 'phoneagent',
      sleeperOnFailure: 'alert'
    })
    const agent = fleet.agents[0]
    const running = fleet.sleeperPid(agent)
    fleet.killSleeper(agent)
    await logIn(page)

    const attention = page.getByTestId('dashboard').getByRole('link', { name: new RegExp(agent.name) })
    await expect(attention.first()).toBeVisible({ timeout: 20_000 })
    await attention.first().tap()
    const sleeper = page.getByTestId('services').locator('[data-service="sleeper"]')
    await expect(sleeper).toContainText('Does not exist', { timeout: 15_000 })

    await sleeper.getByRole('button', { name: 'Actions for sleeper' }).tap()
    await page.getByRole('menuitem', { name: 'Restart', exact: true }).tap()
    await page.getByRole('dialog').getByRole('button', { name: 'Restart sleeper' }).tap()
    await expect(sleeper.getByRole('status')).toHaveText('Restart accepted by the agent', { timeout: 15_000 })
    await expect.poll(() => fleet!.sleeperPid(agent), { timeout: 15_000 }).not.toBe(running)
    await expect(sleeper).not.toContainText('Does not exist', { timeout: 15_000 })

    await page.getByRole('button', { name: `Mute ${agent.name}`, exact: true }).tap()
    const mute = page.getByRole('dialog')
    await mute.getByRole('textbox', { name: 'Reason' }).fill('restarted from the phone')
    await mute.getByRole('button', { name: 'Mute', exact: true }).tap()
    await expect(page.getByTestId('host-detail').getByTestId('muted').first()).toContainText('Muted until')
    await expect(page.getByRole('dialog')).toHaveCount(0)
    const { width } = await page.evaluate(sidewaysScrolling)
    expect(width).toBeLessThanOrEqual(PHONE.width)
  })
})
