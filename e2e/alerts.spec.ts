// Administration › Alerts in the browser, against the built server and a real HTTP receiver on
// 127.0.0.1: a webhook channel (a refusal under its field, created, tested green, then red with the
// receiver's own words; its secret write-only), a rule for a host and the channel (a refusal first), mutes
// set from the host screen (the host for 1 h, a service for 8 h after a past date is refused), listed and
// one ended early, the delivery log showing the notification the rule sent when the host's agent
// reported a failure (with its filters), dark theme, a rule made while it fails offering to notify it now,
// deletions; then first-run setup's channel offer on a server of its own. Only what this spec made is
// changed.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test, type Page } from '@playwright/test'
import { removeDir, startBuiltServer } from '../test/support/built-server'
import { logIn, pickOption, report, reportNow, screenshot } from './support/console'

const HOST = { id: 'a1e7'.repeat(8), name: 'alerts-e2e-web' }
const CHANNEL = 'e2e-hook'
const RULE = 'e2e-web-failures'
const LATE_RULE = 'e2e-web-late'

/** What the receiver got, and what it answers next. */
const receiver = {
  requests: [] as { headers: IncomingHttpHeaders; body: string }[],
  failing: false,
  server: undefined as Server | undefined,
  url: ''
}

test.beforeAll(async () => {
  receiver.server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      receiver.requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      if (receiver.failing) {
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('receiver says no: disk full')
      } else {
        res.writeHead(204).end()
      }
    })
  })
  await new Promise<void>((resolve) => receiver.server!.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(receiver.server!.address() as AddressInfo).port}/hook`
  // Healthy first: the failure comes later, once the rule exists.
  await report('02-status-heartbeat', HOST.id, HOST.name)
})

test.afterAll(async () => {
  await new Promise((resolve) => receiver.server?.close(resolve))
})

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
})

/** A full-page screenshot from the top: the fixed header would otherwise land mid-page. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0))
  await screenshot(page, name)
}

/** Picks an option of a Mantine Select or MultiSelect inside `scope`, typing to find it where one can. */
async function pick(page: Page, scope: ReturnType<Page['getByRole']>, input: string, option: string) {
  const box = scope
    .getByRole('textbox', { name: input })
    .or(scope.getByRole('combobox', { name: input }))
    .first()
  await box.click()
  // A plain Select is read-only: its options are clicked, not typed.
  if (await box.isEditable()) await box.fill(option)
  await page.getByRole('option', { name: option, exact: true }).click()
  // Tab, not Escape, closes a MultiSelect's list: Escape would also close the dialog around it.
  await box.press('Tab')
}

async function openHost(page: Page) {
  await page.goto('/#/hosts?q=alerts-e2e')
  await page.getByRole('link', { name: HOST.name }).click()
  await expect(page.getByRole('heading', { name: HOST.name })).toBeVisible()
}

test('alerts: webhook channel with a test, a rule, mutes from the host screen, the delivery log', async ({ page }) => {
  test.setTimeout(120_000)
  await logIn(page)
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Alerts' }).click()
  await expect(page.getByRole('heading', { name: 'Alerts' })).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Channels' })).toHaveAttribute('aria-selected', 'true')

  // ---- a channel: a refusal under the field it names, then created ----
  await page.getByRole('button', { name: 'New channel' }).click()
  const form = page.getByRole('dialog', { name: 'New channel' })
  // The first type the server lists (e-mail) shows its own fields; another type, its own.
  await expect(form.getByLabel('Type', { exact: true })).toHaveValue('E-mail')
  await expect(form.getByRole('textbox', { name: 'SMTP server' })).toBeVisible()
  await shot(page, 'alerts-channel-form-email')
  await pick(page, form, 'Type', 'Webhook')
  await expect(form.getByRole('textbox', { name: 'SMTP server' })).toHaveCount(0)
  await expect(form.getByText('POSTs the notification as JSON')).toBeVisible()
  await form.getByLabel('Name').fill(CHANNEL)
  await form.getByLabel('URL').fill('ftp://example.org')
  await form.getByRole('button', { name: 'Create channel' }).click()
  await expect(form.getByText('url must be an http:// or https:// URL')).toBeVisible()
  await form.getByLabel('URL').fill(receiver.url)
  await form.getByLabel('Extra headers').fill('X-E2e: yes')
  await form.getByLabel('Signing secret').fill('e2e-secret')
  await shot(page, 'alerts-channel-form')
  await form.getByRole('button', { name: 'Create channel' }).click()
  await expect(form).toBeHidden()
  const row = page.locator(`tr[data-channel="${CHANNEL}"]`)
  await expect(row).toContainText('Webhook')
  await expect(row).toContainText('Enabled')

  // ---- Test: green, with the receiver getting the JSON, our header and the signature ----
  await page.getByRole('button', { name: `Test ${CHANNEL}` }).click()
  const result = page.getByTestId('channel-test')
  await expect(result).toHaveAttribute('data-status', 'green')
  await expect(result).toContainText(`Sent to ${CHANNEL}`)
  const sent = receiver.requests.at(-1)!
  expect(sent.headers['x-e2e']).toBe('yes')
  expect(sent.headers['x-overseer-signature']).toMatch(/^sha256=[0-9a-f]{64}$/)
  expect(JSON.parse(sent.body).summary).toBe('This is a test from Overseer')
  await shot(page, 'alerts-channels-test-green')

  // ---- Test again with the receiver failing: red, in the receiver's own words ----
  receiver.failing = true
  await page.getByRole('button', { name: `Test ${CHANNEL}` }).click()
  await expect(result).toHaveAttribute('data-status', 'red')
  await expect(result).toContainText('500')
  await expect(result).toContainText('receiver says no: disk full')
  await shot(page, 'alerts-channels-test-red')
  receiver.failing = false

  // The secrets are write-only: the edit form says the signing secret is set and starts empty, and shows
  // the header's name with its value hidden; saved as shown, the header keeps its value.
  await page.getByRole('button', { name: `Edit ${CHANNEL}` }).click()
  const edit = page.getByRole('dialog', { name: `Edit ${CHANNEL}` })
  await expect(edit.getByLabel('Signing secret')).toHaveValue('')
  await expect(edit.getByLabel('Signing secret')).toHaveAttribute('placeholder', 'set — leave empty to keep')
  await expect(edit.getByLabel('URL')).toHaveValue(receiver.url)
  await expect(edit.getByLabel('Extra headers')).toHaveValue('X-E2e: ••••••')
  await edit.getByRole('button', { name: 'Save' }).click()
  await expect(edit).toBeHidden()

  // ---- a rule for the host and the channel ----
  await page.getByRole('tab', { name: 'Rules' }).click()
  await expect(page).toHaveURL(/tab=rules/)
  await page.getByRole('button', { name: 'New rule' }).click()
  const ruleForm = page.getByRole('dialog', { name: 'New rule' })
  await ruleForm.getByRole('textbox', { name: 'Name', exact: true }).fill(RULE)
  await ruleForm.getByRole('button', { name: 'Create rule' }).click()
  await expect(ruleForm.getByText('at least one channel is required')).toBeVisible()
  await pick(page, ruleForm, 'Channels', CHANNEL)
  await pick(page, ruleForm, 'Hosts', HOST.name)
  await pick(page, ruleForm, 'Service types', 'Process')
  // The service name is suggested from what the hosts report (a pattern may be typed instead).
  await ruleForm.getByRole('combobox', { name: 'Service name' }).fill('slee')
  await page.getByRole('option', { name: 'sleeper', exact: true }).click()
  await expect(ruleForm.getByRole('combobox', { name: 'Service name' })).toHaveValue('sleeper')
  // Sent at once: the spec waits for the delivery below.
  await ruleForm.getByLabel('Group wait (seconds)').fill('0')
  await shot(page, 'alerts-rule-form')
  await ruleForm.getByRole('button', { name: 'Create rule' }).click()
  await expect(ruleForm).toBeHidden()
  const ruleRow = page.locator(`tr[data-rule="${RULE}"]`)
  await expect(ruleRow).toContainText(HOST.name)
  await expect(ruleRow).toContainText('Process')
  await expect(ruleRow).toContainText(CHANNEL)
  await expect(ruleRow).toContainText('wait 0 s')
  await shot(page, 'alerts-rules')

  // ---- mutes from the host screen: the host for 1 h, a service for 8 h ----
  await openHost(page)
  await page.getByRole('button', { name: `Mute ${HOST.name}` }).click()
  const mute = page.getByRole('dialog', { name: `Mute ${HOST.name}` })
  await expect(mute.getByRole('radio', { name: '1 hour' })).toBeChecked()
  await mute.getByLabel('Reason').fill('kernel upgrade')
  await mute.getByRole('button', { name: 'Mute' }).click()
  await expect(mute).toBeHidden()
  await expect(page.getByTestId('muted').first()).toContainText('Muted until')

  await page.getByRole('button', { name: `Mute labprog on ${HOST.name}` }).click()
  const serviceMute = page.getByRole('dialog', { name: `Mute labprog on ${HOST.name}` })
  // A date in the past: refused under the date, in the browser, before anything is sent.
  await serviceMute.getByRole('radio', { name: 'Until a date' }).check()
  await serviceMute.getByLabel('Until', { exact: true }).fill('2020-01-01T00:00')
  await serviceMute.getByRole('button', { name: 'Mute' }).click()
  await expect(serviceMute.getByText('must be in the future')).toBeVisible()
  await serviceMute.getByRole('radio', { name: '8 hours' }).check()
  await serviceMute.getByLabel('Reason').fill('rewriting the check')
  await serviceMute.getByRole('button', { name: 'Mute' }).click()
  await expect(serviceMute).toBeHidden()
  await expect(page.locator('tr[data-service="labprog"]').getByTestId('muted')).toBeVisible()
  await shot(page, 'alerts-host-muted')

  // Listed under Alerts › Mutes; the host's mute ends early, the service's stays.
  await page.goto('/#/admin/alerts?tab=mutes')
  const hostMute = page.locator(`tr[data-mute="${HOST.name}"]`)
  const labprogMute = page.locator(`tr[data-mute="labprog on ${HOST.name}"]`)
  await expect(hostMute).toContainText('kernel upgrade')
  await expect(hostMute).toContainText('the whole host')
  await expect(hostMute).toContainText('admin')
  await expect(labprogMute).toContainText('rewriting the check')
  await shot(page, 'alerts-mutes')
  await page.getByRole('button', { name: `End the mute of ${HOST.name}` }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'End the mute' }).click()
  await expect(hostMute).toHaveCount(0)
  await expect(labprogMute).toBeVisible()
  // An ended mute stays in the maintenance log, on request.
  await page.getByRole('switch', { name: 'Show ended mutes' }).check()
  await expect(hostMute).toContainText('Ended')
  await expect(hostMute.getByRole('button', { name: /End the mute/ })).toHaveCount(0)
  await expect(labprogMute.getByRole('button', { name: `End the mute of labprog on ${HOST.name}` })).toBeVisible()

  // ---- the host's process fails: the rule sends it, the delivery log shows it ----
  const before = receiver.requests.length
  // The host reported last when the file began: on a busy machine, long enough ago for its heartbeat
  // to be declared lost, and a failure of a host gone silent is held back (inhibited). It reports a
  // second before the failure, as a live agent does every cycle.
  await reportNow('02-status-heartbeat', HOST.id, HOST.name, 1)
  // Collected now: after the host's mute ended (what happened while it was muted stays untold).
  await reportNow('03-event-process-not-running', HOST.id, HOST.name, 0)
  await expect.poll(() => receiver.requests.length, { timeout: 30_000 }).toBeGreaterThan(before)
  const alert = JSON.parse(receiver.requests.at(-1)!.body)
  expect(alert.alerts[0]).toMatchObject({ host: HOST.name, service: 'sleeper', state: 'failed' })
  // The header saved back hidden kept its value.
  expect(receiver.requests.at(-1)!.headers['x-e2e']).toBe('yes')

  await page.getByRole('tab', { name: 'Delivery log' }).click()
  const delivery = page.locator(`tr[data-delivery="${alert.id}"]`)
  await expect(delivery).toContainText(CHANNEL)
  await expect(delivery).toContainText(RULE)
  await expect(delivery).toContainText('Delivered')
  await expect(delivery).toContainText(alert.summary)
  // Filters: by status (in the URL), then one that matches nothing.
  await pick(page, page.getByRole('tabpanel'), 'Status', 'Delivered')
  await expect(page).toHaveURL(/status=delivered/)
  await expect(delivery).toBeVisible()
  await shot(page, 'alerts-deliveries')
  // A time range (in the URL too): the last hour has it, a day in 2020 not.
  await pickOption(page, 'Range', 'Last hour')
  await expect(page).toHaveURL(/range=\d+/)
  await expect(delivery).toBeVisible()
  await pickOption(page, 'Range', 'Custom range')
  await page.getByRole('textbox', { name: 'From', exact: true }).fill('2020-01-01T00:00')
  await page.getByRole('textbox', { name: 'To', exact: true }).fill('2020-01-02T00:00')
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByTestId('deliveries-empty')).toHaveText('No notification matches these filters.')
  await pickOption(page, 'Range', 'Any time')
  await expect(delivery).toBeVisible()
  await pick(page, page.getByRole('tabpanel'), 'Status', 'Failed')
  await expect(page.getByTestId('deliveries-empty')).toHaveText('No notification matches these filters.')

  // Dark theme: the same screens stay readable.
  await page.getByRole('button', { name: 'Switch to dark theme' }).click()
  await page.goto('/#/admin/alerts?tab=deliveries')
  await expect(delivery).toBeVisible()
  await shot(page, 'alerts-deliveries-dark')
  await page.goto('/#/admin/alerts')
  await page.getByRole('button', { name: `Test ${CHANNEL}` }).click()
  await expect(result).toHaveAttribute('data-status', 'green')
  await shot(page, 'alerts-channels-dark')
  await page.getByRole('button', { name: 'Switch to light theme' }).click()

  // ---- a rule made while the sleeper fails: saving offers to notify it now ----
  await page.getByRole('tab', { name: 'Rules' }).click()
  await page.getByRole('button', { name: 'New rule' }).click()
  const late = page.getByRole('dialog', { name: 'New rule' })
  await late.getByRole('textbox', { name: 'Name', exact: true }).fill(LATE_RULE)
  await pick(page, late, 'Channels', CHANNEL)
  await pick(page, late, 'Hosts', HOST.name)
  await late.getByLabel('Group wait (seconds)').fill('0')
  // Reporting: a silent host's services are not paged about.
  await reportNow('02-status-heartbeat', HOST.id, HOST.name, 0)
  const sentBefore = receiver.requests.length
  await late.getByRole('button', { name: 'Create rule' }).click()
  const offer = late.getByTestId('notify-active')
  await expect(offer).toContainText("1 failure in this rule's scope is active now")
  await expect(offer).toContainText(`process sleeper does not exist on ${HOST.name}`)
  await shot(page, 'alerts-rule-notify-active')
  await offer.getByRole('button', { name: 'Notify the 1 failure now' }).click()
  await expect(late).toBeHidden()
  await expect.poll(() => receiver.requests.length, { timeout: 30_000 }).toBeGreaterThan(sentBefore)
  expect(JSON.parse(receiver.requests.at(-1)!.body).alerts[0]).toMatchObject({ service: 'sleeper', state: 'failed' })

  // ---- delete, confirmed: the rules, then the channel ----
  for (const name of [LATE_RULE, RULE]) {
    await page.getByRole('button', { name: `Delete ${name}` }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
    await expect(page.locator(`tr[data-rule="${name}"]`)).toHaveCount(0)
  }
  await page.getByRole('tab', { name: 'Channels' }).click()
  await page.getByRole('button', { name: `Delete ${CHANNEL}` }).click()
  await expect(page.getByRole('dialog')).toContainText('pending notifications and delivery log go with it')
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(row).toHaveCount(0)
})

test('first-run setup offers a first channel: "Add a webhook" leads, after the login, to its form', async ({ page }) => {
  // A server of its own with no user: setup is open only there.
  const fresh = await startBuiltServer()
  try {
    await page.goto(`${fresh.baseUrl}/`)
    await page.getByLabel('User name').fill('owner')
    await page.getByLabel(/^Password/).fill('owner-secret-1')
    await page.getByLabel('Repeat the password').fill('owner-secret-1')
    await page.getByRole('button', { name: 'Next' }).click()
    await page.getByLabel('Collector password').fill('agentpass123')
    await page.getByRole('button', { name: 'Create both accounts' }).click()
    await expect(page.getByText('Be told when something fails (optional)')).toBeVisible()
    await shot(page, 'alerts-setup-offer')
    await page.getByRole('link', { name: 'Add a webhook' }).click()
    await page.getByLabel('User name').fill('owner')
    await page.getByLabel('Password').fill('owner-secret-1')
    await page.getByRole('button', { name: 'Log in' }).click()
    const form = page.getByRole('dialog', { name: 'New channel' })
    await expect(form.getByLabel('Type', { exact: true })).toHaveValue('Webhook')
    await expect(page).toHaveURL(/#\/admin\/alerts$/)
    // Once: closed, it stays closed on reload.
    await form.getByRole('button', { name: 'Cancel' }).click()
    await page.reload()
    await expect(page.getByRole('button', { name: 'New channel' })).toBeVisible()
    await expect(form).toBeHidden()
  } finally {
    await fresh.stop()
    removeDir(fresh.dataDir)
  }
})
