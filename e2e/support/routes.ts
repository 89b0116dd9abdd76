// Every screen of the console, for the specs that visit them all (phone.spec.ts: nothing scrolls
// sideways at 390 px; readable.spec.ts: no WCAG 2 A/AA violation). One host, reported by the spec that
// first needs it, fills the screens that show a host, its services, an event and its uptime.
import { expect, type Page } from '@playwright/test'
import { loginAs, type ApiClient } from '../../test/support/api-client'
import { ADMIN, BASE_URL, report } from './console'

export const PHONE = { width: 390, height: 844 }
export const DESK = { width: 1440, height: 900 }

const AGENT = 'a6a60000000000000000000000000001'
// Long labels without hyphens: a name that only breaks after its dots.
export const ROUTES_HOST = 'phonehostwithlongname.datacenterwest.example.internal'

export interface Screen {
  name: string
  /** The hash path, e.g. /hosts/12. */
  path: string
}

/** Reports the host (a process not running: a failing service and an active error event) and lists
 *  every route of src/renderer/app/router.tsx with its ids. */
export async function everyScreen(): Promise<Screen[]> {
  await report('03-event-process-not-running', AGENT, ROUTES_HOST)
  const admin = await loginAs(BASE_URL, ADMIN.uname, ADMIN.password)
  const hosts = (await admin.get('/api/2/status/hosts/list', { hostpattern: 'phonehostwithlongname' })).json as {
    records: { id: number }[]
  }
  const hostId = hosts.records[0].id
  const events = (await admin.get('/api/2/reports/events/list', { hostid: hostId })).json as { records: { id: number }[] }
  const eventId = events.records[0].id
  await fillAdministration(admin, hostId)
  const paths: [string, string][] = [
    ['dashboard', '/'],
    ['hosts', '/hosts'],
    ['services', '/services'],
    ['host', `/hosts/${hostId}`],
    ['events', '/events'],
    // A host and a service group chosen: the filters' pills and clear buttons, each with a name.
    ['events-filtered', `/events?host=%5B${hostId}%5D&servicegroup=1`],
    ['event', `/events/${eventId}`],
    ['uptime', '/uptime'],
    ['uptime-host', `/uptime/${hostId}`],
    ['admin-hosts', '/admin/hosts'],
    ['admin-host', `/admin/hosts/${hostId}`],
    ['admin-users', '/admin/users'],
    ['admin-roles', '/admin/roles'],
    ['admin-single-sign-on', '/admin/single-sign-on'],
    ['admin-groups', '/admin/groups'],
    ['admin-channels', '/admin/alerts'],
    ['admin-rules', '/admin/alerts?tab=rules'],
    ['admin-mutes', '/admin/alerts?tab=mutes'],
    ['admin-deliveries', '/admin/alerts?tab=deliveries'],
    ['admin-audit', '/admin/audit'],
    ['admin-import', '/admin/import'],
    ['admin-pulled-agents', '/admin/pulled-agents'],
    ['settings', '/settings']
  ]
  return paths.map(([name, path]) => ({ name, path }))
}

/** A channel, a mute, a host group and a single sign-on mapping, once: the administration tables have a row to show. */
async function fillAdministration(admin: ApiClient, hostId: number): Promise<void> {
  const channels = (await admin.get('/api/2/admin/alerts/channels/list')).json as { records: { name: string }[] }
  if (channels.records.some((c) => c.name === 'routes-hook')) return
  const made = await Promise.all([
    admin.post('/api/2/admin/alerts/channels/create', { type: 'webhook', name: 'routes-hook', url: 'http://127.0.0.1:9/hook' }),
    admin.post('/api/2/admin/alerts/mutes/create', { hostid: hostId, until: Math.floor(Date.now() / 1000) + 3600 }),
    admin.post('/api/2/admin/groups/create', { name: 'routes-group' }),
    admin.post('/api/2/admin/sso/groups/update', { group: 'routes-sso-group', roleid: 1 })
  ])
  for (const res of made) expect(res.status, res.text).toBe(200)
  const group = made[2].json as { id: number }
  expect((await admin.post('/api/2/admin/groups/add', { id: group.id, hostid: hostId })).status).toBe(200)
}

/** A screen's code and data on a busy machine (screens load their code on first visit). */
const SCREEN_READY_MS = 15_000

/** Opens a screen and waits until it has drawn its data: no spinner, skeleton or "Loading…" left. */
export async function visit(page: Page, screen: Screen): Promise<void> {
  await page.goto(`/#${screen.path}`)
  await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible({ timeout: SCREEN_READY_MS })
  const loading = page
    .locator('.mantine-Loader-root, .mantine-Skeleton-root[data-visible]')
    .or(page.getByText(/^Loading/))
    .filter({ visible: true })
  await expect(loading).toHaveCount(0, { timeout: SCREEN_READY_MS })
}
