// The alert channel form checks itself before sending, against the built server: an e-mail and a
// webhook channel each show several invalid fields at once, each under its input with its reason, and
// nothing goes to the server until they are fixed; the e-mail channel is then created with two
// recipients, which its edit form shows again, and deleted.
import { expect, test, type Locator, type Page } from '@playwright/test'
import { logIn, screenshot } from './support/console'

const CHANNEL = 'e2e-form-mail'

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The input labelled `label` in `form` (a required one's label ends in " *"). */
const field = (form: Locator, label: string) => form.getByLabel(new RegExp(`^${escape(label)}( \\*)?$`))

/** Fills the inputs of `form` by label. */
async function fillIn(form: Locator, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) await field(form, label).fill(value)
}

/** Each input, by label, says its reason (its error is part of its accessible description). */
async function expectReasons(form: Locator, reasons: Record<string, string>) {
  for (const [label, reason] of Object.entries(reasons)) {
    await expect(field(form, label)).toHaveAccessibleDescription(new RegExp(escape(reason)))
  }
}

async function openNewChannel(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'New channel' }).click()
  return page.getByRole('dialog', { name: 'New channel' })
}

test('the channel form shows every invalid field at once before sending anything', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  const sent: string[] = []
  page.on('request', (r) => {
    if (/\/admin\/alerts\/channels\/(create|update)/.test(r.url())) sent.push(r.url())
  })
  await logIn(page)
  await page.goto('/#/admin/alerts')

  // ---- e-mail: five settings wrong at once ----
  let form = await openNewChannel(page)
  await expect(field(form, 'Type')).toHaveValue('E-mail')
  await fillIn(form, { Name: CHANNEL, 'SMTP server': 'smtp host', Port: '70000', 'SMTP user': 'alert', From: 'overseer' })
  await form.getByRole('button', { name: 'Create channel' }).click()
  await expectReasons(form, {
    'SMTP server': 'expected a host name or IP address',
    Port: 'expected a port number from 1 to 65535',
    'SMTP password': 'is required with smtpuser',
    From: 'expected an e-mail address such as ops@example.com',
    To: 'at least one recipient is required (to, userid or both)'
  })
  await screenshot(page, 'alerts-channel-form-email-invalid')
  expect(sent).toEqual([])

  // Fixed, with two recipients: an input's reason goes as it is edited; then it is created.
  await field(form, 'SMTP server').fill('smtp.example.org')
  await expect(field(form, 'SMTP server')).not.toHaveAccessibleDescription(/expected/)
  await expectReasons(form, { From: 'expected an e-mail address' })
  await fillIn(form, {
    Port: '',
    'SMTP password': 's3cret',
    From: 'Overseer <overseer@example.org>',
    To: 'ops@example.org\ndba@example.org'
  })
  await form.getByRole('button', { name: 'Create channel' }).click()
  await expect(form).toBeHidden()
  expect(sent).toHaveLength(1)
  const row = page.locator(`tr[data-channel="${CHANNEL}"]`)
  await expect(row).toContainText('E-mail')

  // Its edit form keeps both recipients and the stored password (empty: kept, so no complaint).
  await page.getByRole('button', { name: `Edit ${CHANNEL}` }).click()
  const edit = page.getByRole('dialog', { name: `Edit ${CHANNEL}` })
  await expect(field(edit, 'To')).toHaveValue('ops@example.org\ndba@example.org')
  await expect(field(edit, 'SMTP password')).toHaveValue('')
  await field(edit, 'SMTP server').fill('')
  await edit.getByRole('button', { name: 'Save' }).click()
  await expectReasons(edit, { 'SMTP server': 'is required' })
  await expect(field(edit, 'SMTP password')).toHaveAccessibleDescription('')
  expect(sent).toHaveLength(1)
  await edit.getByRole('button', { name: 'Cancel' }).click()

  // ---- webhook: the name, the URL and a header wrong at once ----
  form = await openNewChannel(page)
  await field(form, 'Type').click()
  await page.getByRole('option', { name: 'Webhook', exact: true }).click()
  await fillIn(form, { URL: 'ftp://example.org/hook', 'Extra headers': 'X-Ok: 1\nContent-Type: text/plain' })
  await form.getByRole('button', { name: 'Create channel' }).click()
  await expectReasons(form, {
    Name: 'must not be empty',
    URL: 'url must be an http:// or https:// URL',
    'Extra headers': 'header "Content-Type" is set by Overseer and cannot be replaced'
  })
  await screenshot(page, 'alerts-channel-form-webhook-invalid')
  expect(sent).toHaveLength(1)
  await form.getByRole('button', { name: 'Cancel' }).click()

  // ---- only what this spec made goes ----
  await page.getByRole('button', { name: `Delete ${CHANNEL}` }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
  await expect(row).toHaveCount(0)
})
