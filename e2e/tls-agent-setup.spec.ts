// The console served over HTTPS (--tls self-signed): the agent setup line pins the server's certificate
// (`with ssl { verify: enable, cacertificatefile }`), links to the certificate and names the weaker
// fallback; per-agent accounts are proposed first. At desktop and phone width.
import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { SELF_SIGNED_CERT } from '../src/server/tls/tls-files'
import { removeDir, startBuiltServer, type BuiltServer } from '../test/support/built-server'
import { E2E_PORT, logIn, screenshot } from './support/console'

let server: BuiltServer
let origin: string
test.beforeAll(async () => {
  server = await startBuiltServer({
    args: ['--port', String(E2E_PORT + 7), '--tls', 'self-signed', '--init-admin', 'admin:e2eadmin', '--init-collector', 'monit:e2ecollect']
  })
  origin = `https://127.0.0.1:${server.port}`
})
test.afterAll(async () => {
  await server.stop()
  removeDir(server.dataDir)
})

// The browser is not the subject here (test/server/tls and test/integration/https-real-agent pin the
// certificate); it accepts the self-signed certificate as a user does after comparing the fingerprint.
test.use({ ignoreHTTPSErrors: true })

for (const [label, width, height] of [
  ['desktop', 1280, 900],
  ['phone', 390, 844]
] as const) {
  test(`the agent setup over HTTPS pins the certificate (${label})`, async ({ page }) => {
    await page.setViewportSize({ width, height })
    await logIn(page, 'admin', 'e2eadmin', origin)
    await page.goto(`${origin}/#/settings`)
    await expect(page.getByRole('heading', { name: 'Collector credentials' })).toBeVisible()
    // toHaveText collapses the line break before `with ssl` into one space.
    await expect(page.getByTestId('monitrc-line')).toHaveText(
      `set mmonit https://monit:PASSWORD@127.0.0.1:${server.port}/collector with ssl { verify: enable, cacertificatefile: /etc/monit/overseer.pem }`
    )
    await expect(page.getByTestId('own-accounts')).toContainText('an account of its own for each agent')
    const pinned = page.getByTestId('pinned-certificate')
    await expect(pinned).toContainText('openssl x509 -noout -fingerprint -sha256')
    await expect(pinned).toContainText('selfsigned: allow')
    const href = await pinned.getByRole('link', { name: 'download the certificate' }).getAttribute('href')
    const certificate = readFileSync(join(server.dataDir, SELF_SIGNED_CERT), 'utf8')
    const download = await page.request.get(href!)
    expect(await download.text()).toBe(certificate)
    // The fingerprint shown is the one the server logged (and openssl prints for the agent's copy).
    const fingerprint = new X509Certificate(certificate).fingerprint256
    await expect(page.getByTestId('certificate-fingerprint')).toHaveText(`SHA-256 fingerprint: ${fingerprint}`)
    expect(server.output()).toContain(fingerprint)
    await pinned.scrollIntoViewIfNeeded()
    await screenshot(page, `tls-agent-setup-${label}`)
  })
}
