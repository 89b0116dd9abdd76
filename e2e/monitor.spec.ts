// The monitoring screens against the real server: dashboard → host → service chart, the hosts list's
// filters, a live LED change, a service action on a real Monit agent, and what a viewer of one host
// sees. Hosts, agents, roles and users here are this spec's own (names start with "mon-"/"mon").
import { expect, test, type Page } from '@playwright/test'
import { loginAs, type ApiClient } from '../test/support/api-client'
import { startAgents, type AgentFleet } from '../test/support/monit-agents'
import { ADMIN, BASE_URL, COLLECTOR_AUTH, logIn, pickOption, POSTGRES_SMOKE, report, reportNow, screenshot } from './support/console'

const AGENT = {
  alpha: 'a4a40000000000000000000000000001',
  beta: 'a4a40000000000000000000000000002',
  live: 'a4a40000000000000000000000000003',
  gamma: 'a4a40000000000000000000000000004'
}
const VIEWER = { uname: 'monviewer', password: 'monviewer-pass' }
const LED = { red: '0', orange: '1', gray: '3' }

let admin: ApiClient

test.beforeAll(async () => {
  admin = await loginAs(BASE_URL, ADMIN.uname, ADMIN.password)
  // An hour's poll: mon-alpha stays a reporting host (its actions offered) however long the spec takes.
  await reportNow('02-status-heartbeat', AGENT.alpha, 'mon-alpha', 120, 3600)
  await report('02-status-heartbeat', AGENT.beta, 'mon-beta')
  // Events spread over the last hours, for the dashboard's chart.
  await reportNow('03-event-process-not-running', AGENT.gamma, 'mon-gamma', 5 * 3600)
  await reportNow('11-event-checksum-changed', AGENT.gamma, 'mon-gamma', 3 * 3600)
  await reportNow('12-event-program-status-failed', AGENT.gamma, 'mon-gamma', 3600)
  await reportNow('01-event-monit-started', AGENT.gamma, 'mon-gamma', 1800)
})

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
})

async function hostIdByName(name: string): Promise<number> {
  const res = await admin.get('/api/2/status/hosts/list', { hostpattern: name })
  const host = (res.json as { records: { id: number; hostname: string }[] }).records.find((h) => h.hostname === name)
  if (!host) throw new Error(`no host named ${name}: ${res.text}`)
  return host.id
}

test('dashboard → host → service statistics and chart, light and dark', async ({ page }) => {
  await logIn(page)
  const dashboard = page.getByTestId('dashboard')
  await expect(dashboard).toHaveAttribute('data-ready', 'true')
  await expect(page.getByTestId('host-summary')).toBeVisible()
  await expect(page.getByRole('img', { name: /Events in the last 24 hours/ })).toBeVisible()
  await screenshot(page, 'dashboard')

  // mon-alpha has a failing remote host check (deadport): it needs attention. The dashboard lists the
  // first 20 of every spec's hosts, silent ones first: it is reached through the hosts list's filter.
  await page.goto('/#/hosts?q=mon-alpha')
  await page.getByTestId('hosts-list').locator('[data-host-row="mon-alpha"]').click()
  await expect(page.getByRole('heading', { name: 'mon-alpha', level: 2 })).toBeVisible()
  const services = page.getByTestId('services')
  await expect(services.locator('[data-service="deadport"]')).toContainText('Connection failed')
  await expect(services.locator('[data-service="sleeper"]')).toContainText('Monitored')
  // Fixture hosts have no reachable agent here, but the admin may act: the buttons are offered.
  await expect(page.getByRole('button', { name: 'Actions for sleeper' })).toBeVisible()
  await screenshot(page, 'host-detail')
  // A remote host check runs no program: only unmonitoring is offered. Nothing listens at the address
  // the fixture's agent reported: the failure shows next to the service.
  await page.getByRole('button', { name: 'Actions for deadport' }).click()
  await expect(page.getByRole('menuitem')).toHaveText(['Unmonitor'])
  await page.getByRole('menuitem', { name: 'Unmonitor' }).click()
  await expect(services.locator('[data-service="deadport"]').getByRole('alert')).toContainText(/\S/)

  // A service has its own page: its state, figures, charts and events on one screen.
  await services.getByRole('link', { name: 'sleeper' }).click()
  await expect(page).toHaveURL(/#\/hosts\/\d+\/services\/sleeper$/)
  const servicePage = page.getByTestId('service-detail')
  await expect(servicePage.getByRole('heading', { name: 'sleeper', level: 2 })).toBeVisible()
  await expect(page.getByTestId('service-status')).not.toBeEmpty()
  await expect(servicePage.getByRole('heading', { name: 'Latest events of sleeper' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Latest figures of sleeper' })).toBeVisible()
  await expect(page.getByTestId('latest-figures')).toContainText('PID')
  const charts = page.getByTestId('service-charts')
  await expect(charts.getByRole('heading', { name: 'Statistics of sleeper' })).toBeVisible()
  // The server keeps statistics history (reports/analytics/get): the chart is drawn in every range.
  const chart = charts.locator('[data-chart] canvas').first()
  await expect(chart).toBeVisible()
  await chartShot(page, 'service-chart')
  // The one range picker of the console (issue 14), its choice in the URL.
  for (const [range, id] of [
    ['Last hour', 1],
    ['Last 7 days', 5],
    ['Last 6 hours', 2]
  ] as const) {
    await pickOption(page, 'Range', range)
    await expect(page).toHaveURL(new RegExp(`range=${id}`))
    await expect(chart).toBeVisible()
  }

  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark')
  await chartShot(page, 'service-chart-dark')
  // Full-page shots from the top: the fixed header would otherwise be drawn where the page was scrolled to.
  await page.evaluate(() => window.scrollTo(0, 0))
  await screenshot(page, 'host-detail-dark')
  await page.goto('/#/')
  await expect(page.getByTestId('dashboard')).toHaveAttribute('data-ready', 'true')
  await screenshot(page, 'dashboard-dark')
})

test('hosts list: filters and sort live in the URL, rows are links', async ({ page }) => {
  await logIn(page)
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Hosts', exact: true }).click()
  const list = page.getByTestId('hosts-list')
  // Only this spec's hosts: the other specs' (hundreds, some silent) come first in the list's order.
  await page.getByLabel('Host name contains').fill('mon-')
  await expect(list.locator('[data-host-row="mon-alpha"]')).toBeVisible()
  await screenshot(page, 'hosts-list')

  await page.getByLabel('Host name contains').fill('mon-be')
  await expect(list.locator('[data-host-row]')).toHaveCount(1)
  await expect(list.locator('[data-host-row="mon-beta"]')).toBeVisible()
  await expect(page).toHaveURL(/q=mon-be/)

  await page.getByLabel('Host name contains').fill('mon-')
  await page.getByRole('button', { name: /^Sort by Host/ }).click()
  await page.getByRole('button', { name: /^Sort by Host, now ascending/ }).click()
  await expect(page).toHaveURL(/dir=desc/)
  // The URL changes before the list has been fetched again in the new order.
  const rowNames = () => list.locator('[data-host-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-host-row')))
  await expect
    .poll(async () => {
      const names = await rowNames()
      return names.indexOf('mon-beta') < names.indexOf('mon-alpha')
    })
    .toBe(true)

  // Green only: the fixture hosts are orange (or red once their heartbeat stops), so none is left.
  await page.getByRole('group', { name: 'Filter by LED' }).locator('label', { hasText: 'Green' }).click()
  await expect(page.getByRole('checkbox', { name: 'Green' })).toBeChecked()
  await expect(page).toHaveURL(/led=/)
  await expect(page.getByTestId('hosts-empty')).toHaveText('No host matches these filters.')
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await expect(list.locator('[data-host-row="mon-alpha"]')).toBeVisible()

  // Host group (administrators): only the group's members.
  const csrf = { CSRFToken: await admin.csrfToken() }
  const group = await admin.post('/api/2/admin/groups/create', { name: 'mon-group' }, csrf)
  expect(group.status, group.text).toBe(200)
  const added = await admin.post(
    '/api/2/admin/groups/add',
    { id: (group.json as { id: number }).id, hostid: await hostIdByName('mon-beta') },
    csrf
  )
  expect(added.status, added.text).toBe(200)
  await page.getByRole('combobox', { name: 'Host group' }).click()
  await page.getByRole('option', { name: 'mon-group' }).click()
  await expect(page).toHaveURL(/group=/)
  await expect(list.locator('[data-host-row]')).toHaveText([/mon-beta/])
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await expect(list.locator('[data-host-row="mon-alpha"]')).toBeVisible()

  // Keyboard: the rows are links in the tab order.
  await list.locator('[data-host-row="mon-alpha"]').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: 'mon-alpha', level: 2 })).toBeVisible()
})

test('a host that starts failing changes colour on screen without a reload', POSTGRES_SMOKE, async ({ page }) => {
  await report('01-event-monit-started', AGENT.live, 'mon-live')
  await logIn(page)
  await page.goto('/#/hosts?q=mon-live')
  const row = page.getByTestId('hosts-list').locator('[data-host-row="mon-live"]')
  // Just started: every service is still initializing, so the host is gray.
  await expect(row.locator('[data-led]')).toHaveAttribute('data-led', LED.gray)
  await page.evaluate(() => {
    ;(window as unknown as { notReloaded: boolean }).notReloaded = true
  })

  await report('03-event-process-not-running', AGENT.live, 'mon-live')
  // Some services fail (sleeper, deadport): the host turns orange, pushed over the live stream.
  await expect(row.locator('[data-led]')).toHaveAttribute('data-led', LED.orange, { timeout: 5000 })
  await row.click()
  const sleeper = page.getByTestId('services').locator('[data-service="sleeper"]')
  await expect(sleeper.locator('[data-led]')).toHaveAttribute('data-led', LED.red)
  await expect(sleeper).toContainText('Does not exist')
  // Monit stops reporting (the fixture's poll is 5 s, skew 3): the watchdog marks the host red.
  const hostLed = page.getByTestId('host-detail').locator('[data-led]').first()
  await expect(hostLed).toHaveAttribute('data-led', LED.red, { timeout: 30_000 })
  await expect(page.getByTestId('host-detail').getByText('No heartbeat')).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true)
})

test.describe('with a real Monit agent', () => {
  let fleet: AgentFleet | undefined

  test.afterAll(async () => {
    await fleet?.shutdown()
  })

  test('stop and start its sleeper from the host screen; the agent reports the change back', POSTGRES_SMOKE, async ({ page }) => {
    test.setTimeout(90_000)
    fleet = await startAgents({
      collectorUrl: `http://${COLLECTOR_AUTH}@127.0.0.1:${new URL(BASE_URL).port}/collector`,
      count: 1,
      namePrefix: 'monagent'
    })
    const agent = fleet.agents[0]
    let hostId = 0
    await expect.poll(async () => (hostId = await hostIdOfAgent(agent.id)), { timeout: 15_000 }).toBeGreaterThan(0)

    await logIn(page)
    await page.goto(`/#/hosts/${hostId}`)
    const sleeper = page.getByTestId('services').locator('[data-service="sleeper"]')
    await expect(sleeper.locator('[data-monitoring]')).toHaveText('Monitored', { timeout: 15_000 })

    // Stop asks first, naming the service and its host.
    await actOn(page, 'sleeper', 'Stop')
    const confirm = page.getByRole('dialog', { name: `Stop sleeper on ${agent.name}?` })
    await expect(confirm).toContainText(`the service sleeper on the host ${agent.name}`)
    await confirm.getByRole('button', { name: 'Stop sleeper' }).click()
    await expect(sleeper.getByRole('status')).toHaveText('Stop accepted by the agent')
    await expect(sleeper.locator('[data-monitoring]')).toHaveText('Not monitored', { timeout: 15_000 })
    await expect.poll(() => fleet!.sleeperPid(agent), { timeout: 5000 }).toBeUndefined()
    await screenshot(page, 'service-action')

    await actOn(page, 'sleeper', 'Start')
    await expect(sleeper.getByRole('status')).toHaveText('Start accepted by the agent')
    await expect(sleeper.locator('[data-monitoring]')).toHaveText('Monitored', { timeout: 15_000 })
    await expect.poll(() => fleet!.sleeperPid(agent), { timeout: 5000 }).not.toBeUndefined()
  })
})

/**
 * The charts alone, in a window tall enough to hold them: a scrolled element shot would have the fixed
 * header drawn across it.
 */
async function chartShot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 2000 })
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.getByTestId('service-charts').screenshot({ path: `reports/screenshots/${name}.png` })
  await page.setViewportSize({ width: 1280, height: 800 })
}

async function actOn(page: Page, service: string, action: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${service}` }).click()
  await page.getByRole('menuitem', { name: action, exact: true }).click()
}

/** The id of the host reporting with this agent id, or 0 while it has not reported. */
async function hostIdOfAgent(agentId: string): Promise<number> {
  const list = (await admin.get('/api/2/status/hosts/list')).json as { records: { id: number }[] }
  for (const { id } of list.records) {
    const detail = (await admin.get('/api/2/status/hosts/get', { id })).json as { records: { host: { agent: { id: string } } } }
    if (detail.records.host.agent.id === agentId) return id
  }
  return 0
}

test('a user who may view one host sees only that host and no administration', POSTGRES_SMOKE, async ({ page }) => {
  const alpha = await hostIdByName('mon-alpha')
  const beta = await hostIdByName('mon-beta')
  const csrf = { CSRFToken: await admin.csrfToken() }
  const role = await admin.post(
    '/api/2/admin/roles/create',
    { name: 'mon-viewers', admin: false, active: true, rolerowscount: 1, hosts0: alpha, permission0: 2 },
    csrf
  )
  expect(role.status, role.text).toBe(200)
  const user = await admin.post(
    '/api/2/admin/users/create',
    { uname: VIEWER.uname, password: VIEWER.password, fullname: 'Mon Viewer', roleid: (role.json as { id: number }).id },
    csrf
  )
  expect(user.status, user.text).toBe(200)

  await logIn(page, VIEWER.uname, VIEWER.password)
  const nav = page.getByRole('navigation', { name: 'Main navigation' })
  await expect(nav.getByText('Administration')).toHaveCount(0)
  await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0)

  await nav.getByRole('link', { name: 'Hosts' }).click()
  await expect(page.getByTestId('host-count')).toHaveText('1 host')
  await expect(page.getByTestId('hosts-list').locator('[data-host-row]')).toHaveText([/mon-alpha/])
  // No group filter: host groups are an administrator's.
  await expect(page.getByLabel('Host group')).toHaveCount(0)

  await page.getByTestId('hosts-list').locator('[data-host-row="mon-alpha"]').click()
  await expect(page.getByRole('heading', { name: 'mon-alpha', level: 2 })).toBeVisible()
  // View permission only: no service actions.
  await expect(page.getByRole('button', { name: /^Actions for/ })).toHaveCount(0)
  await expect(page.getByText('starting and stopping them needs the service actions permission')).toBeVisible()
  await screenshot(page, 'host-detail-viewer')

  await page.goto(`/#/hosts/${beta}`)
  await expect(page.getByRole('heading', { name: 'Host not found' })).toBeVisible()
  await expect(page.getByText('mon-beta')).toHaveCount(0)
})

test('a user who may view no host gets the empty dashboard with the monitrc line', async ({ page }) => {
  const csrf = { CSRFToken: await admin.csrfToken() }
  const role = await admin.post('/api/2/admin/roles/create', { name: 'mon-nothing', admin: false, active: true, rolerowscount: 0 }, csrf)
  expect(role.status, role.text).toBe(200)
  const user = await admin.post(
    '/api/2/admin/users/create',
    { uname: 'monnobody', password: 'monnobody-pass', fullname: 'Mon Nobody', roleid: (role.json as { id: number }).id },
    csrf
  )
  expect(user.status, user.text).toBe(200)

  await logIn(page, 'monnobody', 'monnobody-pass')
  const empty = page.getByTestId('no-hosts')
  await expect(empty.getByRole('heading', { name: 'No hosts yet' })).toBeVisible()
  await expect(empty.getByTestId('monitrc-line')).toHaveText(
    `set mmonit http://USER:PASSWORD@127.0.0.1:${new URL(BASE_URL).port}/collector`
  )
  // Not an administrator: no link to Settings' collector credentials, a pointer to who has them.
  await expect(empty.getByText('Ask an administrator')).toBeVisible()
  await screenshot(page, 'dashboard-empty')
})
