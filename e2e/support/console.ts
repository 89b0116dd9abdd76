// What every console spec needs: the server the Playwright config started, logging in through the
// real form, and agents' data from the real fixture payloads posted to /collector.
import { expect, type Page } from '@playwright/test'
import { postCollector } from '../../test/support/collector-client'
import { asAgent, fixture } from '../../test/support/fixtures'
import { captureShiftTo, retimeCapture, withPoll } from '../../test/support/payloads'

/**
 * The config's server listens here, and the specs that start their own on the next few ports. Below
 * Linux's ephemeral range (32768–60999): the vitest lane beside Playwright opens connections by the
 * hundred, and one of their local ports once took a spec's port (EADDRINUSE, a failed CI run).
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 23150)
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`
export const ADMIN = { uname: 'admin', password: 'e2eadmin' }
/** The collector user the config's server was started with (--init-collector). */
export const COLLECTOR_AUTH = 'monit:e2ecollect'
/** The tests that run again on PostgreSQL (scripts/test-all.sh): what the engine stores and pushes — a
 *  login, live changes, a real agent's action, a viewer's permissions. The console is the same on both. */
export const POSTGRES_SMOKE = { tag: '@postgres' }

/** `origin`: a spec's own server; the config's by default. */
export async function logIn(page: Page, uname = ADMIN.uname, password = ADMIN.password, origin = ''): Promise<void> {
  await page.goto(`${origin}/`)
  await page.getByLabel('User name').fill(uname)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
}

/** Seconds added to every fixture time: the capture is replayed as if it happened in the last hour. */
export const CAPTURE_SHIFT = captureShiftTo(Date.now() / 1000)

/**
 * Reports a fixture payload, re-timed by CAPTURE_SHIFT, as the agent `agentId` named `hostname`; each spec
 * uses its own ids. To the config's server unless `to` names a spec's own.
 */
export async function report(
  fixtureName: string,
  agentId: string,
  hostname: string,
  to = { baseUrl: BASE_URL, auth: COLLECTOR_AUTH }
): Promise<void> {
  const xml = Buffer.from(retimeCapture(asAgent(fixture(fixtureName), agentId, hostname), CAPTURE_SHIFT), 'latin1')
  const res = await postCollector(to.baseUrl, xml, { auth: to.auth })
  expect(res.status, res.body).toBe(200)
}

/** A full-page screenshot to look at, with E2E_SCREENSHOTS=1 (into reports/screenshots): some 70 of them cost a run
 *  a minute of CPU, and no test reads them. */
export async function screenshot(page: Page, name: string, dir = 'reports/screenshots'): Promise<void> {
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true })
}

/**
 * A fixture collected `ago` seconds ago (two minutes by default) rather than at its capture, hours or
 * days back: its statistics and events fall inside the charts' ranges (which end at the last whole minute).
 * `pollSec`: the poll the agent says it has (the fixture's 5 s by default; the watchdog declares a host
 * silent after skew × poll).
 */
export async function reportNow(fixtureName: string, agentId: string, hostname: string, ago = 120, pollSec?: number): Promise<void> {
  const now = Math.floor(Date.now() / 1000) - ago
  const payload = pollSec === undefined ? fixture(fixtureName) : Buffer.from(withPoll(fixture(fixtureName), pollSec), 'latin1')
  const xml = asAgent(payload, agentId, hostname)
    .toString('latin1')
    .replace(/<collected_sec>\d+<\/collected_sec>/g, `<collected_sec>${now}</collected_sec>`)
  const res = await postCollector(BASE_URL, Buffer.from(xml, 'latin1'), { auth: COLLECTOR_AUTH })
  expect(res.status, res.body).toBe(200)
}

/** Picks `option` from the select or combobox labelled `field`, typing `typed` first when given. */
export async function pickOption(page: Page, field: string, option: string, typed?: string): Promise<void> {
  const input = page.getByRole('combobox', { name: field, exact: true })
  await input.click()
  if (typed) await input.fill(typed)
  await page.getByRole('option', { name: option, exact: true }).click()
}
