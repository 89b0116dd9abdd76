// The agent's TLS certificate in the host editor: the pinned fingerprint, and when the agent's address
// presents another certificate, the alert with both fingerprints and "Accept certificate".
import { expect, test } from '@playwright/test'
import { loginAs } from '../test/support/api-client'
import { selfSigned } from '../test/support/certificates'
import { tlsRecorder, type TlsRecorder } from '../test/support/tls-recorder'
import { ADMIN, BASE_URL, logIn, report, screenshot } from './support/console'

const HOST = { id: 'ce01'.repeat(8), name: 'tls-agent-e2e' }
const recorders: TlsRecorder[] = []

test.afterAll(async () => {
  for (const r of recorders) await r.close()
})

test('a changed agent certificate is shown with the pinned one, and accepted from the host editor', async ({ page }) => {
  const [first, second] = [selfSigned('agent'), selfSigned('agent')]
  recorders.push(await tlsRecorder(first), await tlsRecorder(second))
  const [agent, other] = recorders
  await report('02-status-heartbeat', HOST.id, HOST.name)
  const admin = await loginAs(BASE_URL, ADMIN.uname, ADMIN.password)
  const hosts = (await admin.get('/api/2/admin/hosts/list')).json as { records: { id: number; hostname: string }[] }
  const id = hosts.records.find((h) => h.hostname === HOST.name)!.id
  const callBack = (port: number) =>
    admin.post('/api/2/admin/hosts/update', {
      id,
      hostname: HOST.name,
      ipaddrout: '127.0.0.1',
      portout: port,
      sslout: 1,
      agentuser: 'admin',
      agentpassword: 'agent-pw'
    })
  const testOwn = (port: number) => admin.post('/api/2/admin/hosts/test', { id, ipaddr: '127.0.0.1', port, ssl: 1 })
  // First use pins the agent's certificate; then another one answers at its address.
  expect((await callBack(agent.port)).status).toBe(200)
  expect(((await testOwn(agent.port)).json as { status: string }).status).toBe('green')
  expect((await callBack(other.port)).status).toBe(200)
  expect(((await testOwn(other.port)).json as { status: string }).status).toBe('red')

  await logIn(page)
  for (const [width, height, name] of [
    [1280, 800, 'admin-host-certificate-changed'],
    [390, 844, 'admin-host-certificate-changed-phone']
  ] as const) {
    await page.setViewportSize({ width, height })
    await page.goto(`/#/admin/hosts/${id}`)
    const alert = page.getByTestId('certificate-changed')
    await expect(alert).toContainText(`Pinned: ${first.sha256}`)
    await expect(alert).toContainText(`Presented: ${second.sha256}`)
    await expect(page.getByTestId('agent-certificate')).toContainText(first.sha256)
    await screenshot(page, name)
  }
  await page.getByTestId('certificate-changed').getByRole('button', { name: 'Accept certificate' }).click()
  await expect(page.getByTestId('certificate-changed')).toBeHidden()
  await expect(page.getByTestId('agent-certificate')).toContainText(second.sha256)
  await page.getByRole('button', { name: 'Test connection' }).click()
  await expect(page.getByTestId('connection-test')).toHaveText(
    `Connected to Monit at 127.0.0.1:${other.port} (certificate SHA-256 ${second.sha256})`
  )
  await screenshot(page, 'admin-host-certificate-accepted')
})
