// A host whose credentials an administrator pinned: a message naming another httpd, from another
// address, is shown in the host editor, and nothing changes until the administrator accepts it.
import { expect, test } from '@playwright/test'
import { loginAs } from '../test/support/api-client'
import { postCollector } from '../test/support/collector-client'
import { asAgent, fixture } from '../test/support/fixtures'
import { ADMIN, BASE_URL, COLLECTOR_AUTH, logIn, report, screenshot } from './support/console'

const HOST = { id: 'ad06'.repeat(8), name: 'pinned-e2e' }

test('a pinned host shows what its agent reports now, and takes it once accepted', async ({ page }) => {
  await report('02-status-heartbeat', HOST.id, HOST.name)
  const admin = await loginAs(BASE_URL, ADMIN.uname, ADMIN.password)
  const hosts = (await admin.get('/api/2/admin/hosts/list')).json as { records: { id: number; hostname: string }[] }
  const id = hosts.records.find((h) => h.hostname === HOST.name)!.id
  expect(
    (await admin.post('/api/2/admin/hosts/update', { id, hostname: HOST.name, agentuser: 'admin', agentpassword: 'pinned-pw' })).status
  ).toBe(200)
  // The same agent id, from another machine, naming another httpd.
  const moved = asAgent(fixture('02-status-heartbeat'), HOST.id, HOST.name)
    .toString('latin1')
    .replace('<port>2812</port>', '<port>2999</port>')
  expect((await postCollector(BASE_URL, Buffer.from(moved, 'latin1'), { auth: COLLECTOR_AUTH, localAddress: '127.0.0.2' })).status).toBe(
    200
  )

  await logIn(page)
  for (const [width, height, name] of [
    [1280, 800, 'admin-host-reported-changes'],
    [390, 844, 'admin-host-reported-changes-phone']
  ] as const) {
    await page.setViewportSize({ width, height })
    await page.goto(`/#/admin/hosts/${id}`)
    const alert = page.getByTestId('reported-changes')
    await expect(alert).toContainText('The agent now reports its httpd at 127.0.0.1:2999; the server still calls it at 127.0.0.1:2812.')
    await expect(alert).toContainText("A message came from 127.0.0.2; this host's messages are known to come from 127.0.0.1.")
    await screenshot(page, name)
  }
  await page.getByTestId('reported-changes').getByRole('button', { name: 'Accept' }).click()
  await expect(page.getByTestId('reported-changes')).toBeHidden()
  const after = (await admin.get('/api/2/admin/hosts/get', { id })).json as { portin: number; sourceipaddr: string }
  expect(after).toMatchObject({ portin: 2999, sourceipaddr: '127.0.0.2' })
})
