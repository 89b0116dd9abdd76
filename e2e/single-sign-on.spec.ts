// Administration › Single sign-on (issue 30 §2). The e2e server runs without --oidc-issuer, so the screen
// says single sign-on is off and how to turn it on (the flags, the redirect URI to register); the mapping
// table can be filled in beforehand: an administrator maps the group "ops" to a role made here, sees it in
// the table, gives it a second role, and removes it after confirming. The form's own checks (a group, a role,
// a group mapped already) and the server's 400 (a role deleted meanwhile) show under it; at 390 px the table
// is a card per group. A server of its own started with the --oidc-* flags (on a port the OS picks; the
// provider is only asked at a login, which none is here) shows single sign-on on and how it is set up.
import { expect, test, type Page } from '@playwright/test'
import { loginAs, type ApiClient } from '../test/support/api-client'
import { removeDir, startBuiltServer } from '../test/support/built-server'
import { ADMIN, BASE_URL, logIn, screenshot } from './support/console'
import { PHONE } from './support/routes'

interface Mapping {
  group: string
  roleids: number[]
}

const OPS_ROLE = 'sso-e2e-operators'
const VIEW_ROLE = 'sso-e2e-viewers'
const GONE_ROLE = 'sso-e2e-deleted-meanwhile'

let admin: ApiClient
let csrf: Record<string, string>
/** The mappings found at the start (another spec's), put back at the end. */
let before: Mapping[] = []
const roleIds: Record<string, number> = {}

async function mappings(): Promise<Mapping[]> {
  const res = await admin.get('/api/2/admin/sso/get')
  expect(res.status, res.text).toBe(200)
  return (res.json as { groups: Mapping[] }).groups
}

async function setMapping(group: string, roleid: number[]): Promise<void> {
  const res = await admin.post('/api/2/admin/sso/groups/update', { group, roleid }, csrf)
  expect(res.status, res.text).toBe(200)
}

async function createRole(name: string): Promise<number> {
  const res = await admin.post('/api/2/admin/roles/create', { name, admin: false, active: true, rolerowscount: 0 }, csrf)
  expect(res.status, res.text).toBe(200)
  return (res.json as { id: number }).id
}

test.beforeAll(async () => {
  admin = await loginAs(BASE_URL, ADMIN.uname, ADMIN.password)
  csrf = { CSRFToken: await admin.csrfToken() }
  for (const name of [OPS_ROLE, VIEW_ROLE, GONE_ROLE]) roleIds[name] = await createRole(name)
  // An empty table to start from, whatever ran before.
  before = await mappings()
  for (const m of before) await setMapping(m.group, [])
})

test.afterAll(async () => {
  for (const m of before) await setMapping(m.group, m.roleids)
  for (const name of [OPS_ROLE, VIEW_ROLE]) await admin.post('/api/2/admin/roles/delete', { id: roleIds[name] }, csrf)
})

/** Picks `option` in the role picker labelled Roles inside `scope`, then closes its list. */
async function pickRole(page: Page, scope: ReturnType<Page['locator']>, option: string): Promise<void> {
  const input = scope.getByRole('combobox', { name: 'Roles' })
  await input.click()
  await input.fill(option)
  await page.getByRole('option', { name: option, exact: true }).click()
  await page.keyboard.press('Escape')
}

const rowOf = (page: Page, group: string) => page.locator(`tr[data-sso-group="${group}"]`)

test('an administrator maps an identity provider group to roles before single sign-on is on, edits and removes it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 })
  await logIn(page)
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Single sign-on' }).click()
  await expect(page.getByRole('heading', { name: 'Single sign-on', level: 2 })).toBeVisible()
  await expect(page).toHaveTitle(/Single sign-on — Overseer$/)

  // Off on this server: how to turn it on, and the redirect URI the provider must register.
  const summary = page.getByTestId('sso-summary')
  await expect(summary).toHaveAttribute('data-sso', 'off')
  await expect(summary.getByRole('heading', { name: 'Single sign-on is off' })).toBeVisible()
  const off = page.getByTestId('sso-off')
  for (const flag of [
    '--oidc-issuer',
    '--oidc-client-id',
    '--oidc-client-secret',
    '--oidc-groups-claim',
    '--oidc-link-email on',
    '--password-login break-glass',
    '--break-glass-user'
  ])
    await expect(off).toContainText(flag)
  await expect(page.getByTestId('sso-redirect-uri')).toHaveText(`${BASE_URL}/auth/oidc/callback`)
  await expect(off).toContainText('can be filled in beforehand')

  // No mapping yet: the empty table, and what a mapping does.
  const mappingsSection = page.getByRole('region', { name: 'Groups → roles' })
  await expect(page.getByTestId('sso-mappings-none')).toContainText('No group is mapped')
  await expect(page.getByTestId('sso-mapping-note')).toContainText(
    "At each single sign-on login, a user's roles become those its groups give; with no mapping at all, roles stay as administrators set them."
  )
  await expect(mappingsSection.getByRole('link', { name: 'Roles' })).toHaveAttribute('href', /#\/admin\/roles$/)
  await screenshot(page, 'single-sign-on-off')

  // The form's own checks: a group and a role.
  const form = page.getByRole('region', { name: 'Add mapping' })
  await form.getByRole('button', { name: 'Add mapping' }).click()
  await expect(form).toContainText("Enter a group as the provider's groups claim names it")
  await expect(form).toContainText('Pick at least one role')
  await expect(form.getByLabel('Group')).toHaveAttribute('maxlength', '255')

  // ops → the operators role, without a reload.
  await form.getByLabel('Group').fill(' ops ')
  await pickRole(page, form, OPS_ROLE)
  await form.getByRole('button', { name: 'Add mapping' }).click()
  const ops = rowOf(page, 'ops')
  await expect(ops).toBeVisible()
  await expect(ops).toContainText(OPS_ROLE)
  await expect(page.getByTestId('sso-mappings-none')).toHaveCount(0)
  await expect(form.getByLabel('Group')).toHaveValue('')
  expect(await mappings()).toEqual([{ group: 'ops', roleids: [roleIds[OPS_ROLE]] }])

  // The same group again: its row's Edit is the way.
  await form.getByLabel('Group').fill('ops')
  await pickRole(page, form, VIEW_ROLE)
  await form.getByRole('button', { name: 'Add mapping' }).click()
  await expect(form).toContainText('ops is mapped already')

  // A role deleted after it was picked: the server's 400 names it under the form.
  await form.getByLabel('Group').fill('auditors')
  await form.getByRole('combobox', { name: 'Roles' }).click()
  await page.keyboard.press('Backspace')
  await page.keyboard.press('Escape')
  await pickRole(page, form, GONE_ROLE)
  expect((await admin.post('/api/2/admin/roles/delete', { id: roleIds[GONE_ROLE] }, csrf)).status).toBe(200)
  await form.getByRole('button', { name: 'Add mapping' }).click()
  const refusal = form.getByRole('alert')
  await expect(refusal).toContainText('Not added')
  await expect(refusal).toContainText(`invalid argument 'roleid': no role with id ${roleIds[GONE_ROLE]}`)
  await expect(rowOf(page, 'auditors')).toHaveCount(0)
  await screenshot(page, 'single-sign-on-refused')
  await page.reload()
  await expect(rowOf(page, 'ops')).toBeVisible()

  // Edit: a second role; none at all is refused (Remove is the way).
  await ops.getByRole('button', { name: 'Edit the roles of ops' }).click()
  const edit = page.getByRole('dialog', { name: 'Roles of the group ops' })
  await pickRole(page, edit, VIEW_ROLE)
  await edit.getByRole('button', { name: 'Save' }).click()
  await expect(edit).toHaveCount(0)
  await expect(rowOf(page, 'ops')).toContainText(VIEW_ROLE)
  await expect(rowOf(page, 'ops')).toContainText(OPS_ROLE)
  expect(await mappings()).toEqual([{ group: 'ops', roleids: [roleIds[OPS_ROLE], roleIds[VIEW_ROLE]].sort((a, b) => a - b) }])
  await rowOf(page, 'ops').getByRole('button', { name: 'Edit the roles of ops' }).click()
  const clearing = page.getByRole('dialog', { name: 'Roles of the group ops' })
  await clearing.getByRole('combobox', { name: 'Roles' }).click()
  await page.keyboard.press('Backspace')
  await page.keyboard.press('Backspace')
  await page.keyboard.press('Escape')
  await clearing.getByRole('button', { name: 'Save' }).click()
  await expect(clearing).toContainText('Pick at least one role')
  await clearing.getByRole('button', { name: 'Cancel' }).click()
  await expect(clearing).toHaveCount(0)
  await screenshot(page, 'single-sign-on-mapped')

  // At 390 px: the row is a card, nothing scrolls sideways.
  await page.setViewportSize(PHONE)
  await expect(rowOf(page, 'ops')).toBeVisible()
  // Polled: the navigation slides away once the width is a phone's.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
  await screenshot(page, 'single-sign-on-phone')
  await page.setViewportSize({ width: 1440, height: 900 })

  // Remove, confirmed: the empty table again.
  await rowOf(page, 'ops').getByRole('button', { name: 'Remove the mapping of ops' }).click()
  const confirm = page.getByRole('dialog', { name: 'Remove the mapping of ops?' })
  await expect(confirm).toContainText('gives no role any more')
  await confirm.getByRole('button', { name: 'Remove' }).click()
  await expect(rowOf(page, 'ops')).toHaveCount(0)
  await expect(page.getByTestId('sso-mappings-none')).toBeVisible()
  expect(await mappings()).toEqual([])
})

test('with the --oidc-* flags, the summary shows the issuer, the groups claim, e-mail linking and the break-glass user', async ({
  page
}) => {
  const issuer = 'http://127.0.0.1:9/realms/e2e-provider-with-a-rather-long-name'
  const server = await startBuiltServer({
    args: [
      '--init-admin',
      'rescue:e2erescue',
      '--oidc-issuer',
      issuer,
      '--oidc-client-id',
      'overseer-e2e',
      '--oidc-groups-claim',
      'roles',
      '--oidc-link-email',
      'on',
      '--password-login',
      'break-glass',
      '--break-glass-user',
      'rescue'
    ],
    // The secret as the docs advise: in the environment, out of the process list.
    env: { OVERSEER_OIDC_CLIENT_SECRET: 'e2e-client-secret-never-shown' }
  })
  try {
    await page.setViewportSize(PHONE)
    // The break-glass user keeps its password in a browser.
    await logIn(page, 'rescue', 'e2erescue', server.baseUrl)
    await page.goto(`${server.baseUrl}/#/admin/single-sign-on`)
    const summary = page.getByTestId('sso-summary')
    await expect(summary).toHaveAttribute('data-sso', 'on')
    await expect(summary.getByRole('heading', { name: 'Single sign-on is on' })).toBeVisible()
    await expect(summary).toContainText(issuer)
    await expect(summary).toContainText('Groups claim')
    await expect(summary).toContainText('roles')
    await expect(summary).toContainText('linked to the one local user with that address')
    await expect(page.getByTestId('sso-password-login')).toHaveText(
      'Browsers log in with single sign-on; only rescue keeps a password. Scripts and M/Monit API clients keep passwords and API tokens.'
    )
    await expect(page.getByTestId('sso-off')).toHaveCount(0)
    await expect(page.getByText('e2e-client-secret-never-shown')).toHaveCount(0)
    await expect(page.getByTestId('sso-mappings-none')).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await screenshot(page, 'single-sign-on-on-phone')
  } finally {
    await server.stop()
    removeDir(server.dataDir)
  }
})
