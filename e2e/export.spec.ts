// CSV export: the events list with its current filters (every page of them, not only the one shown),
// and the uptime reports of all hosts and of one host's services.
import { readFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { logIn, report } from './support/console'

const ALPHA = { agent: 'a8a80000000000000000000000000001', name: 'csv-alpha' }
const BETA = { agent: 'a8a80000000000000000000000000002', name: 'csv-beta' }

test.beforeAll(async () => {
  await report('03-event-process-not-running', ALPHA.agent, ALPHA.name)
  await report('12-event-program-status-failed', ALPHA.agent, ALPHA.name)
  await report('11-event-checksum-changed', BETA.agent, BETA.name)
})

/** Clicks Export CSV and reads the file the browser saved, as lines of fields (no field here holds a comma). */
async function exportCsv(page: Page): Promise<{ name: string; rows: string[][] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()])
  const text = readFileSync((await download.path())!, 'utf8')
  expect(text.endsWith('\r\n')).toBe(true)
  return {
    name: download.suggestedFilename(),
    rows: text
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','))
  }
}

test('the events list exports what its filters choose', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await logIn(page)
  await page.goto('/#/events')
  const range = page.getByTestId('event-range')
  await expect(range).toContainText(/of \d+ events/)
  const everyHost = await range.textContent()
  const hosts = page.getByRole('combobox', { name: 'Hosts', exact: true })
  await hosts.click()
  await hosts.fill('csv-al')
  await page.getByRole('option', { name: ALPHA.name, exact: true }).click()
  await page.keyboard.press('Escape')
  // The count of the host's events once their answer is in (the other host has events too).
  await expect(range).not.toHaveText(everyHost!)
  const total = Number((await range.textContent())!.match(/of (\d+) events/)![1])

  const { name, rows } = await exportCsv(page)
  expect(name).toBe('overseer-events.csv')
  expect(rows[0]).toEqual(['Date (UTC)', 'Host', 'Service', 'Service type', 'State', 'Message', 'Active', 'Notes'])
  expect(rows.length - 1).toBe(total)
  expect(new Set(rows.slice(1).map((r) => r[1]))).toEqual(new Set([ALPHA.name]))
  expect(rows.slice(1).every((r) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(r[0]))).toBe(true)
})

test('the uptime reports export every host, and one host every service', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await logIn(page)
  await page.goto('/#/uptime')
  await expect(page.getByRole('table', { name: 'Uptime per host' })).toBeVisible()
  const hostsFile = await exportCsv(page)
  expect(hostsFile.name).toBe('overseer-uptime.csv')
  expect(hostsFile.rows[0]).toEqual([
    'Host',
    'From (UTC)',
    'To (UTC)',
    'Agent reporting %',
    'Services up %',
    'Downtime',
    'Downtime (s)',
    'Unknown',
    'Unknown (s)',
    'Events',
    'Watched'
  ])
  const names = hostsFile.rows.slice(1).map((r) => r[0])
  expect(names).toEqual(expect.arrayContaining([ALPHA.name, BETA.name]))

  await page.getByRole('link', { name: ALPHA.name, exact: true }).click()
  await expect(page.getByRole('heading', { name: `Uptime of ${ALPHA.name}` })).toBeVisible()
  const servicesFile = await exportCsv(page)
  expect(servicesFile.name).toBe(`overseer-uptime-${ALPHA.name}.csv`)
  expect(servicesFile.rows[0][0]).toBe('Service')
  expect(servicesFile.rows.map((r) => r[0])).toEqual(expect.arrayContaining(['Monit', 'sleeper']))
})
