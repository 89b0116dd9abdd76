// The console at a glance (issue 14): what is wrong, where and since when, on a desk (1280 × 800) and a
// phone (390 × 844). The hosts list (failing services by name, last report, greyed figures of a silent
// host, cards on a phone, bulk actions, scroll kept on Back), the dashboard's "Needs attention", the
// events chart's current bucket, the services list, event context and charts that land populated.
// Hosts here are this spec's own (names start with "gl-"); screenshots go to shots/ to be looked at.
import { expect, test, type Page } from '@playwright/test'
import { loginAs, type ApiClient } from '../test/support/api-client'
import { ADMIN, BASE_URL, logIn, pickOption, reportNow, screenshot } from './support/console'

const LONG_NAME = 'gl-a-rather-long-host-name-of-the-storage-cluster-in-rack-seven.example.internal'
const HOSTS = {
  silent: { agent: 'g1a40000000000000000000000000001', name: 'gl-silent' },
  delta: { agent: 'g1a40000000000000000000000000002', name: 'gl-delta' },
  alpha: { agent: 'g1a40000000000000000000000000003', name: 'gl-alpha' },
  long: { agent: 'g1a40000000000000000000000000004', name: LONG_NAME },
  now: { agent: 'g1a40000000000000000000000000005', name: 'gl-now' },
  repeat: { agent: 'g1a40000000000000000000000000006', name: 'gl-repeat' }
}
const BULK = Array.from({ length: 40 }, (_, i) => ({
  agent: `g1b4${String(i).padStart(28, '0')}`,
  name: `gl-bulk-${String(i).padStart(2, '0')}`
}))
const SHOTS = 'shots'
const PHONE = { width: 390, height: 844 }
const DESK = { width: 1280, height: 800 }

let admin: ApiClient
/** When gl-delta's sleeper stopped (s): half an hour before the set-up. */
let deltaFailedAt: number

/** How long gl-delta's sleeper has failed, in whole minutes as the console words it, as a pattern:
 *  30 right after the set-up, more when the machine is busy; the minute either side of now. */
function deltaFailingMinutes(): string {
  const minutes = Math.floor((Date.now() / 1000 - deltaFailedAt) / 60)
  return `(${minutes - 1}|${minutes}|${minutes + 1})`
}

interface OverviewHost {
  id: number
  hostname: string
  heartbeat: number
}

async function overview(pattern: string): Promise<OverviewHost[]> {
  const res = await admin.get('/api/2/status/hosts/overview', { hostpattern: pattern })
  return (res.json as { records: OverviewHost[] }).records
}

/** The fixtures poll every 5 s: a host is silent 15 s after its last report unless told to wait longer. */
async function keepAlive(name: string): Promise<void> {
  const [host] = (await overview(name)).filter((h) => h.hostname === name)
  const res = await admin.post('/api/2/admin/hosts/update', {
    id: host.id,
    hostname: name,
    agentuser: 'admin',
    agentpassword: '',
    skew: 1000
  })
  expect(res.status, res.text).toBe(200)
}

test.beforeAll(async () => {
  test.setTimeout(90_000)
  admin = await loginAs(BASE_URL, ADMIN.uname, ADMIN.password)
  await reportNow('02-status-heartbeat', HOSTS.silent.agent, HOSTS.silent.name)
  for (const h of BULK) await reportNow('02-status-heartbeat', h.agent, h.name)
  for (const h of BULK) await keepAlive(h.name)
  // sleeper stopped half an hour ago (an open failure), deadport fails without an event.
  deltaFailedAt = Date.now() / 1000 - 1800
  await reportNow('03-event-process-not-running', HOSTS.delta.agent, HOSTS.delta.name, 1800)
  await reportNow('02-status-heartbeat', HOSTS.alpha.agent, HOSTS.alpha.name)
  await reportNow('02-status-heartbeat', HOSTS.long.agent, HOSTS.long.name)
  // A failure in the current 10 minutes, for the dashboard chart's newest (partial) bucket.
  await reportNow('12-event-program-status-failed', HOSTS.now.agent, HOSTS.now.name, 30)
  // One file's checksum changing again and again: repeats of one service.
  for (const ago of [900, 600, 300]) await reportNow('11-event-checksum-changed', HOSTS.repeat.agent, HOSTS.repeat.name, ago)
  for (const h of [HOSTS.delta, HOSTS.alpha, HOSTS.long, HOSTS.now, HOSTS.repeat]) await keepAlive(h.name)
  await expect.poll(async () => (await overview(HOSTS.silent.name))[0]?.heartbeat, { timeout: 40_000 }).toBe(0)
})

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(DESK)
})

const rows = (page: Page) => page.getByTestId('hosts-list').locator('[data-host-row]')
const rowNames = (page: Page) => rows(page).evaluateAll((all) => all.map((r) => r.getAttribute('data-host-row')))

/** The page as a phone opens it: resized, then loaded afresh (no sliding navigation bar left over from the desk). */
async function onPhone(page: Page): Promise<void> {
  await page.setViewportSize(PHONE)
  await page.reload()
}

/** Nothing wider than the screen: no sideways scrolling of the page. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }))
  expect(widths.page).toBeLessThanOrEqual(widths.screen)
}

test('hosts list: what fails, since when, the last report; a silent host greyed', async ({ page }) => {
  await logIn(page)
  await page.goto('/#/hosts?q=gl-&led=0&led=1')
  await expect(rows(page).first()).toBeVisible()
  // Silent first, then the longest failing, then by name.
  expect((await rowNames(page)).slice(0, 4)).toEqual([HOSTS.silent.name, HOSTS.delta.name, HOSTS.now.name, LONG_NAME])
  const delta = page.locator(`[data-host-row="${HOSTS.delta.name}"]`)
  await expect(delta).toContainText('sleeper, deadport')
  await expect(delta).toContainText(new RegExp(`${deltaFailingMinutes()} min`))
  await expect(delta).toContainText(/\d+ s ago|1 min ago/)
  // An orange host LED sums up failing services: not "Changed".
  await expect(delta.locator('[data-led]')).toHaveAttribute('aria-label', 'Some services failing or changed')
  const silent = page.locator(`[data-host-row="${HOSTS.silent.name}"]`)
  await expect(silent).toHaveAttribute('data-silent', 'true')
  await expect(silent.getByTitle(/^Last known value, reported/).first()).toBeVisible()
  // The last 24 hours, an hour per cell: unknown before the first report (minutes ago), then sleeper down
  // for the last half hour; the silent host silent at the end.
  await expect(delta.locator('[data-trend]')).toHaveAttribute('data-trend', /^3{22,23}1{1,2}$/)
  await expect(silent.locator('[data-trend]')).toHaveAttribute('data-trend', /^3{23}2$/)
  await screenshot(page, 'hosts-desktop', SHOTS)

  await onPhone(page)
  await expect(page.getByTestId('hosts-list')).toHaveAttribute('data-layout', 'cards')
  await expect(delta).toContainText('sleeper, deadport')
  await expectNoSidewaysScroll(page)
  await expect(page.getByRole('button', { name: /^Account of/ })).toBeInViewport()
  await screenshot(page, 'hosts-phone', SHOTS)
})

test('hosts list: Back from a host restores where the list was scrolled to', async ({ page }) => {
  await logIn(page)
  await page.goto('/#/hosts?q=gl-bulk&sort=hostname')
  const list = page.getByTestId('hosts-list')
  await expect(list).toHaveAttribute('data-total', '40')
  await list.evaluate((el) => {
    el.scrollTop = 900
  })
  const target = rows(page).filter({ hasText: 'gl-bulk-25' })
  await target.click()
  await expect(page.getByTestId('host-detail')).toBeVisible()
  await page.goBack()
  await expect(list).toBeVisible()
  await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBe(900)
  await expect(target).toBeInViewport()
})

test('hosts list: several hosts added to a group, set Ignored, then deleted after a confirmation', async ({ page }) => {
  const group = await admin.post('/api/2/admin/groups/create', { name: 'gl-group' })
  expect(group.status, group.text).toBe(200)
  await logIn(page)
  await page.goto('/#/hosts?q=gl-bulk-3&sort=hostname')
  await expect(page.getByTestId('hosts-list')).toHaveAttribute('data-total', '10')
  for (const n of ['30', '31', '32']) await page.getByRole('checkbox', { name: `Select gl-bulk-${n}` }).check()
  const bar = page.getByTestId('bulk-actions')
  await expect(bar).toContainText('3 hosts selected')
  await screenshot(page, 'hosts-bulk', SHOTS)

  await pickOption(page, 'Group to add them to', 'gl-group')
  await bar.getByRole('button', { name: 'Add to group' }).click()
  await expect(page.getByText('3 hosts added to gl-group.')).toBeVisible()
  const { id: groupId } = group.json as { id: number }
  await page.goto(`/#/hosts?group=${groupId}&sort=hostname`)
  // The list of the previous filter stays on screen until the group's arrives.
  await expect.poll(() => rowNames(page)).toEqual(['gl-bulk-30', 'gl-bulk-31', 'gl-bulk-32'])

  await page.getByRole('checkbox', { name: 'Select every host loaded' }).check()
  await page.getByRole('button', { name: 'Set status' }).click()
  await page.getByRole('menuitem', { name: 'Ignored' }).click()
  await expect(page.getByText('3 hosts set to Ignored.')).toBeVisible()
  for (const name of ['gl-bulk-30', 'gl-bulk-31', 'gl-bulk-32']) {
    await expect(page.locator(`[data-host-row="${name}"] [data-led]`)).toHaveAttribute('data-led', '3')
  }

  await page.getByRole('checkbox', { name: 'Select every host loaded' }).check()
  await page.getByRole('button', { name: 'Delete 3 hosts' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete 3 hosts?' })
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(rows(page)).toHaveCount(3)
  await page.getByRole('button', { name: 'Delete 3 hosts' }).click()
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(page.getByTestId('hosts-empty')).toBeVisible()
  expect(await overview('gl-bulk-3')).toHaveLength(7)
})

test('dashboard: needing attention in severity order, failing since, long names whole; the current bucket drawn', async ({ page }) => {
  await logIn(page)
  await expect(page.getByTestId('dashboard')).toHaveAttribute('data-ready', 'true')
  const attention = page.getByTestId('attention')
  const order = await attention.locator('[data-attention-host]').evaluateAll((all) => all.map((h) => h.getAttribute('data-attention-host')))
  const ours = order.filter((name) => name?.startsWith('gl-') && !name.startsWith('gl-bulk'))
  expect(ours.indexOf(HOSTS.silent.name)).toBeLessThan(ours.indexOf(HOSTS.delta.name))
  expect(ours.indexOf(HOSTS.delta.name)).toBeLessThan(ours.indexOf(HOSTS.now.name))
  const delta = attention.locator(`[data-attention-host="${HOSTS.delta.name}"]`)
  await expect(delta).toContainText('Failing: sleeper, deadport')
  await expect(delta).toContainText(new RegExp(`failing since .* \\(${deltaFailingMinutes()} min\\)`))
  await expect(attention.locator(`[data-attention-host="${HOSTS.silent.name}"]`)).toContainText(/silent since/)
  // The long name wraps: all of it is on screen, nothing cut by an ellipsis.
  const long = attention.getByRole('link', { name: LONG_NAME })
  await expect(long).toBeVisible()
  expect(await long.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)

  // gl-now failed half a minute ago: the plot's right edge (the current 10 minutes) holds a red bar.
  const chart = page.locator('[data-testid="dashboard"] [data-chart]').first()
  await expect(chart.locator('canvas')).toBeVisible()
  expect(await chart.evaluate(redAtPlotEnd)).toBe(true)
  await screenshot(page, 'dashboard-desktop', SHOTS)

  await onPhone(page)
  await expect(page.getByTestId('dashboard')).toHaveAttribute('data-ready', 'true')
  await expectNoSidewaysScroll(page)
  await screenshot(page, 'dashboard-phone', SHOTS)
})

/** Whether the last 1 % of the plot (uPlot's .u-over marks its area) holds a pixel of the "Failed" red (#fa5252). */
function redAtPlotEnd(chart: HTMLElement): boolean {
  const canvas = chart.querySelector('canvas')!
  const over = chart.querySelector<HTMLElement>('.u-over')!
  const scale = canvas.width / canvas.getBoundingClientRect().width
  const end = Math.round((over.offsetLeft + over.offsetWidth) * scale)
  const from = Math.round((over.offsetLeft + over.offsetWidth * 0.99) * scale)
  const { data } = canvas.getContext('2d')!.getImageData(from, 0, end - from, canvas.height)
  for (let i = 0; i < data.length; i += 4) if (data[i] > 230 && data[i + 1] < 110 && data[i + 2] < 110) return true
  return false
}

test("services: where does sleeper fail, across hosts, with the hosts list's filters kept in the URL", async ({ page }) => {
  await logIn(page)
  await page.goto('/#/services')
  await page.getByLabel('Service name contains').fill('sleep')
  await page.getByLabel('Host name contains').fill('gl-')
  await page.getByRole('group', { name: 'Filter by service LED' }).getByText('Red').click()
  await expect(page).toHaveURL(/service=sleep/)
  await expect(page).toHaveURL(/q=gl-/)
  const table = page.getByTestId('services-table')
  // Failing first, the longest failing first.
  await expect(table.locator('[data-service-row]').first()).toHaveAttribute('data-service-row', `${HOSTS.delta.name}/sleeper`)
  const row = table.locator(`[data-service-row="${HOSTS.delta.name}/sleeper"]`)
  await expect(row).toContainText('Does not exist')
  await expect(row).toContainText(new RegExp(`${deltaFailingMinutes()} min`))
  await page.reload()
  await expect(page.getByLabel('Service name contains')).toHaveValue('sleep')
  await expect(row).toBeVisible()
  await screenshot(page, 'services-desktop', SHOTS)

  await page.getByRole('button', { name: 'Clear filters' }).click()
  await page.getByLabel('Service name contains').fill('deadport')
  await page.getByLabel('Host name contains').fill('gl-')
  await expect(table.locator('[data-service-row]').first()).toContainText('deadport')
  await onPhone(page)
  await expect(table).toHaveAttribute('data-layout', 'cards')
  await expectNoSidewaysScroll(page)
  await screenshot(page, 'services-phone', SHOTS)

  await table.locator('[data-service-row]').first().getByRole('link').click()
  await expect(page.getByTestId('service-detail').getByRole('heading', { name: 'deadport', level: 2 })).toBeVisible()
})

test('event context: an active error says how long it has failed; repeats of one service are grouped', async ({ page }) => {
  await logIn(page)
  const [repeat] = await overview(HOSTS.repeat.name)
  const listed = await admin.get('/api/2/reports/events/list', { hostid: repeat.id })
  const changes = (listed.json as { records: { message: string }[] }).records.filter((e) => e.message.startsWith('checksum changed'))
  expect(changes.length).toBeGreaterThanOrEqual(3)
  await page.goto(`/#/events?host=${repeat.id}`)
  const events = page.getByRole('table', { name: 'Events' })
  const checksum = events.locator('tbody tr').filter({ hasText: 'checksum changed' })
  // labfile's checksum changes, one after the other: one row and a count that unfolds them.
  await expect(checksum).toHaveCount(1)
  await expect(checksum).toContainText(`Repeated ×${changes.length}`)
  const unfold = checksum.getByRole('button', { name: `Repeated ×${changes.length} — show all` })
  await expect(unfold).toHaveAttribute('aria-expanded', 'false')
  await unfold.click()
  await expect(events.locator('tbody tr').filter({ hasText: 'checksum changed' })).toHaveCount(changes.length)
  await expect(checksum.getByRole('button', { name: 'Hide repeats' })).toHaveAttribute('aria-expanded', 'true')
  await screenshot(page, 'events-grouped', SHOTS)

  const [delta] = await overview(HOSTS.delta.name)
  await page.goto(`/#/events?host=${delta.id}&active=1`)
  const sleeper = events.locator('tbody tr').filter({ hasText: 'sleeper' })
  await expect(sleeper).toContainText(new RegExp(`failing for ${deltaFailingMinutes()} min`))
  await sleeper.getByRole('link').first().click()
  await expect(page.getByTestId('failing-for')).toHaveText(new RegExp(`^${deltaFailingMinutes()} min$`))
})

test('host charts land populated, their range in the URL; the CPU chart shows its main lines', async ({ page }) => {
  await logIn(page)
  const [alpha] = await overview(HOSTS.alpha.name)
  await page.goto(`/#/hosts/${alpha.id}`)
  const charts = page.getByTestId('service-charts')
  await expect(charts.locator('[data-chart] canvas').first()).toBeVisible()
  await expect(charts.getByTestId('no-history')).toHaveCount(0)
  // Nine CPU figures: user, system and wait are drawn, the others wait in the legend, named in words.
  const cpu = charts.locator('[data-chart-title="CPU usage"] .u-legend')
  await expect(cpu.locator('tr.u-series:not(.u-off)')).toHaveCount(1 + 3)
  await expect(cpu.locator('tr.u-series.u-off')).toHaveCount(6)
  await expect(cpu).toContainText('I/O wait')
  // The host has reported for minutes of the 24 hours asked for: the caption says since when.
  await expect(charts.getByTestId('chart-span')).toHaveText(/^Last 24 hours — data since \S/)
  await screenshot(page, 'host-charts-desktop', SHOTS)

  await pickOption(page, 'Range', 'Last hour')
  await expect(page).toHaveURL(/range=1/)
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Range' })).toHaveValue('Last hour')
  await expect(charts.locator('[data-chart] canvas').first()).toBeVisible()

  await onPhone(page)
  await expect(charts.locator('[data-chart] canvas').first()).toBeVisible()
  await expectNoSidewaysScroll(page)
  await screenshot(page, 'host-phone', SHOTS)
})

test('uptime and events keep their range and filters through a reload, with the same range picker', async ({ page }) => {
  await logIn(page)
  await page.goto('/#/uptime')
  await page.getByLabel('Find a host').fill(HOSTS.delta.name)
  await expect(page).toHaveURL(/q=gl-delta/)
  await pickOption(page, 'Range', 'Last 24 hours')
  await expect(page).toHaveURL(/range=4.*q=gl-delta|q=gl-delta.*range=4/)
  await page.reload()
  await expect(page.getByLabel('Find a host')).toHaveValue(HOSTS.delta.name)
  await expect(page.getByRole('combobox', { name: 'Range' })).toHaveValue('Last 24 hours')
  await expect(page.getByRole('table', { name: 'Uptime per host' }).locator('tbody tr[data-item]')).toHaveCount(1)

  // A hash change: goto returns before the screen changes, and the uptime screen has a Range of its own.
  await page.goto('/#/events')
  await expect(page.getByRole('heading', { name: 'Events', level: 2 })).toBeVisible()
  await pickOption(page, 'Range', 'Last hour')
  await expect(page).toHaveURL(/range=1/)
  await page.reload()
  await expect(page.getByRole('combobox', { name: 'Range' })).toHaveValue('Last hour')
  await expect(page.getByRole('table', { name: 'Events' }).locator('tbody tr').first()).toBeVisible()
})

test('silent and muted hosts look so on every screen; the tab counts what fails and its icon turns red (issue 28)', async ({ page }) => {
  const [delta] = await overview(HOSTS.delta.name)
  const [silent] = await overview(HOSTS.silent.name)
  const muted = await admin.post('/api/2/admin/alerts/mutes/create', { hostid: delta.id, until: Math.floor(Date.now() / 1000) + 3600 })
  expect(muted.status, muted.text).toBe(200)
  try {
    await page.setViewportSize(DESK)
    await logIn(page)
    await expect(page).toHaveTitle(/^\(\d+\) Dashboard — Overseer$/)
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('data-led', 'red')
    await expect(page.locator(`[data-attention-host="${HOSTS.delta.name}"]`).getByTestId('muted')).toContainText('Muted until')

    await page.goto(`/#/hosts?hostpattern=gl-`)
    await expect(page.locator(`[data-host-row="${HOSTS.delta.name}"]`).getByTestId('muted')).toContainText('muted until')
    await expect(page.locator(`[data-host-row="${HOSTS.alpha.name}"]`).getByTestId('muted')).toHaveCount(0)

    await page.goto(`/#/services?service=sleeper&q=${HOSTS.delta.name}`)
    await expect(page.locator(`[data-service-row="${HOSTS.delta.name}/sleeper"]`).getByTestId('muted')).toBeVisible()

    // A silent host's services: the last known state, when it was reported, and no action offered as if it could run.
    await page.goto(`/#/hosts/${silent.id}`)
    await expect(page).toHaveTitle(/^\(\d+\) Host — Overseer$/)
    await expect(page.getByTestId('last-known')).toContainText(/Last report at .+ ago/)
    const sleeper = page.locator('tr[data-service="sleeper"]')
    await expect(sleeper).toHaveAttribute('data-last-known', 'true')
    await expect(sleeper.getByRole('button', { name: /^Actions for sleeper: .*has not reported/ })).toHaveAttribute('aria-disabled', 'true')
    await screenshot(page, 'glance-silent-host')
    // The service's own page says the same, and offers no action either.
    await page.goto(`/#/hosts/${silent.id}/services/sleeper`)
    await expect(page.getByTestId('last-known')).toContainText(/Last report at .+ ago\)\. This service is as Monit last reported/)
    await expect(page.getByRole('button', { name: /^Actions for sleeper: .*has not reported/ })).toHaveAttribute('aria-disabled', 'true')
    await expect(page.getByTestId('service-detail').locator('[data-last-known]')).toHaveCSS('opacity', '0.4')
    await screenshot(page, 'glance-silent-service')
  } finally {
    await admin.post('/api/2/admin/alerts/mutes/delete', { id: (muted.json as { id: number }).id })
  }
})
