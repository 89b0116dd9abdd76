// The desktop app's real lifecycle: the built main process (out/main/index.js) under plain Node with
// the stand-in `electron`, its server the real out/main/server.js forked as a "utility process".
// First launch, first-run page, a failing event from a real Monit payload becoming a red tray and a
// notification, a crashed server restarted with backoff, a second instance, start at login, quit.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { saveSettings } from '../../src/main/desktop-settings'
import { DATABASE_FILE } from '../../src/server/server'
import { openDatabase } from '../../src/server/store/database'
import { migrations } from '../../src/server/store/migrations'
import { desktopChannels } from '../../src/shared/desktop-api'
import { SELF_SIGNED_CERT } from '../../src/server/tls/tls-files'
import { httpRequest } from '../support/api-client'
import { httpsRequest } from '../support/https-client'
import { removeDir, SERVER_JS } from '../support/built-server'
import { postCollector } from '../support/collector-client'
import { waitFor } from '../support/wait'
import { asAgent, fixture } from '../support/fixtures'
import { captureShiftTo, retimeCapture } from '../support/payloads'
import { isAlive } from './forked-server-process'
import { launchApp, type AppUnderTest } from './stand-in-app'

// Below Linux's ephemeral ports (32768–60999): no connection of the tests beside it can be holding it.
const PORT = 23310
const origin = `http://127.0.0.1:${PORT}`
const setup = { adminuname: 'root', adminpassword: 'first-admin-pw', collectoruname: 'monit', collectorpassword: 'collect0r99' }

let userData: string
const apps: AppUnderTest[] = []

function firstLaunch(): string {
  userData = mkdtempSync(join(tmpdir(), 'overseer-app-'))
  // The port a user picked (desktop-settings.json), so the app keeps to this test's ports, and
  // loopback only: tests listen on nothing else.
  // Plain HTTP, so that the test talks to the server as before; TLS is tested in own-certificate.test.ts.
  saveSettings(userData, { notifications: true, port: PORT, listenHost: '127.0.0.1', tls: false })
  return userData
}

function start(options: Partial<Parameters<typeof launchApp>[0]> = {}): AppUnderTest {
  const app = launchApp({ userData, env: { XDG_CONFIG_HOME: join(userData, 'xdg') }, ...options })
  apps.push(app)
  return app
}

afterEach(async () => {
  for (const app of apps.splice(0)) {
    if (app.process.exitCode === null && app.process.signalCode === null) app.process.kill('SIGKILL')
    await app.exited
    // As under Electron, a server outlives a killed app only for the moment it takes to notice.
    for (const { pid } of app.all('utility-process-forked')) await waitFor(`server ${pid} to end`, () => !isAlive(pid), 5_000)
  }
  removeDir(userData)
})

const serverLog = () => readFileSync(join(userData, 'logs/server.log'), 'utf8')

async function postFailingEvent(): Promise<void> {
  expect(
    (await httpRequest(origin, 'POST', '/api/2/setup/complete', JSON.stringify(setup), { 'Content-Type': 'application/json' })).status
  ).toBe(200)
  const shift = captureShiftTo(Math.floor(Date.now() / 1000))
  const auth = `${setup.collectoruname}:${setup.collectorpassword}`
  for (const name of ['02-status-heartbeat', '03-event-process-not-running']) {
    expect((await postCollector(origin, retimeCapture(asAgent(fixture(name), 'lifecycle-agent', 'web-1'), shift), { auth })).status).toBe(
      200
    )
  }
}

describe('desktop app lifecycle under the stand-in Electron (built out/main/index.js)', { timeout: 120_000 }, () => {
  it('first launch → setup page → red tray and a notification → crash and restart → second instance → start at login → quit', async () => {
    firstLaunch()
    const app = start()

    // The server starts in its utility process and reports its port; the window opens on first-run setup.
    const server = await app.next('utility-process-forked')
    expect(server).toMatchObject({ modulePath: SERVER_JS, args: ['--host', '127.0.0.1', '--data-dir', userData, '--port', String(PORT)] })
    await app.next('window-load', (o) => o.url === `${origin}/#/setup`)
    const window = await app.next('window-created')
    expect(window).toMatchObject({ preload: expect.stringMatching(/out\/preload\/index\.js$/), sandbox: true })
    await app.next('window-shown')
    await app.next('tray-tooltip', (o) => o.text === 'Overseer: no hosts yet')
    expect(app.all('tray-image').every((o) => !o.empty && o.file.endsWith('gray-32.png'))).toBe(true)

    // A failing event from a real Monit payload: the tray turns red, a notification names the service.
    await postFailingEvent()
    await app.next('tray-image', (o) => o.file.endsWith('red-32.png') && !o.empty)
    await app.next('tray-tooltip', (o) => o.text === 'Overseer: 1 host (1 red)')
    expect(await app.next('notification-shown')).toMatchObject({ title: expect.stringContaining('web-1: '), body: expect.any(String) })

    // The server dies of a V8 fatal error (it aborts; Electron emits `error`, then `exit`): the shell
    // logs it, and the supervisor restarts the server after the first backoff delay (1 s), same port.
    const beforeCrash = app.seen.length
    process.kill(server.pid, 'SIGABRT')
    const exit = await app.next('utility-process-exited', (o) => o.pid === server.pid, beforeCrash)
    await app.next('tray-tooltip', (o) => o.text === 'Overseer: the server is restarting', beforeCrash)
    const restarted = await app.next('utility-process-forked', undefined, beforeCrash)
    expect(restarted.at - exit.at).toBeGreaterThanOrEqual(950)
    expect(restarted.args).toEqual(server.args)
    await app.next('window-reloaded', undefined, beforeCrash)
    await app.next('tray-tooltip', (o) => o.text === 'Overseer: 1 host (1 red)', beforeCrash)
    expect((await httpRequest(origin, 'GET', '/health')).status).toBe(200)
    expect(serverLog()).toContain(`ERROR desktop: the server process ended with a FatalError at ${SERVER_JS}`)

    // A second instance hands over and quits; the first shows and focuses its window.
    const beforeSecond = app.seen.length
    const second = start()
    expect(await second.exited).toBe(0)
    expect(second.all('utility-process-forked')).toEqual([])
    await app.next('second-instance', undefined, beforeSecond)
    await app.next('window-focused', undefined, beforeSecond)

    // Start at login (Linux: an XDG autostart entry that starts the app hidden), from the console's page only.
    const page = `${origin}/#/settings`
    const autostart = join(userData, 'xdg/autostart/overseer.desktop')
    expect(await app.invoke(desktopChannels.getStartAtLogin, page)).toBe(false)
    await app.invoke(desktopChannels.setStartAtLogin, page, true)
    expect(await app.invoke(desktopChannels.getStartAtLogin, page)).toBe(true)
    expect(readFileSync(autostart, 'utf8')).toMatch(/^Exec=".*" "--hidden"$/m)
    await app.invoke(desktopChannels.setStartAtLogin, page, false)
    expect(await app.invoke(desktopChannels.getStartAtLogin, page)).toBe(false)
    expect(existsSync(autostart)).toBe(false)
    await expect(app.invoke(desktopChannels.getStartAtLogin, 'http://evil.example/')).rejects.toThrow('not allowed from this page')

    // Quit from the tray: the server stops cleanly (its stop request, exit 0), no process is left.
    app.send({ type: 'tray-menu', label: 'Quit Overseer' })
    expect(await app.exited).toBe(0)
    expect(app.all('utility-process-exited').at(-1)).toMatchObject({ pid: restarted.pid, code: 0 })
    expect(serverLog()).toContain('stop request from the parent process received, shutting down')
    expect(isAlive(restarted.pid)).toBe(false)
    expect(app.all('dialog')).toEqual([])
  })

  it('an upgrade: the tray says the database is being migrated; quitting meanwhile stops the server, asking nothing', async () => {
    firstLaunch()
    const older = openDatabase(join(userData, DATABASE_FILE), undefined, migrations.at(-2)!.version).sqlite
    // 128 MB the backup before the migration must copy: the upgrade lasts long enough for the quit to come
    // during it (an empty database's took less than the quit's way through the tray, on a loaded machine).
    older.exec(`CREATE TABLE ballast (data BLOB);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 128) INSERT INTO ballast SELECT randomblob(1048576) FROM n`)
    older.close()
    const app = start()
    const server = await app.next('utility-process-forked')
    await app.next('tray-tooltip', (o) => o.text === 'Overseer: upgrading the database (this can take a while)…')
    app.send({ type: 'tray-menu', label: 'Quit Overseer' })
    expect(await app.exited).toBe(0)
    expect(app.all('dialog')).toEqual([])
    expect(app.all('window-created')).toEqual([])
    // Exit code 0 is the server's own orderly stop (a kill has none). Its log line is not checked here: the
    // app can quit before it has written the server's last lines to logs/server.log (seen once in CI).
    expect(app.all('utility-process-exited')).toEqual([expect.objectContaining({ pid: server.pid, code: 0 })])
  })

  it('with TLS (new installs): the server speaks HTTPS with its own certificate and the window opens the https origin', async () => {
    userData = mkdtempSync(join(tmpdir(), 'overseer-app-'))
    saveSettings(userData, { notifications: true, port: PORT, listenHost: '127.0.0.1', tls: true })
    const app = start()
    const server = await app.next('utility-process-forked')
    expect(server.args).toEqual(['--host', '127.0.0.1', '--data-dir', userData, '--tls', 'self-signed', '--port', String(PORT)])
    await app.next('window-load', (o) => o.url === `https://127.0.0.1:${PORT}/#/setup`)
    // What the window trusts (own-certificate.ts) is the certificate the server made in its data folder.
    const certificate = readFileSync(join(userData, SELF_SIGNED_CERT), 'utf8')
    const health = await httpsRequest(`https://127.0.0.1:${PORT}/health`, certificate)
    expect(health.status).toBe(200)
    expect(serverLog()).toContain(health.fingerprint)
  })

  it('on Windows: start at login reads back what was set, and a shutdown stops the server cleanly', async () => {
    firstLaunch()
    const app = start({ platform: 'win32' })
    const server = await app.next('utility-process-forked')
    await app.next('window-shown')
    const page = `${origin}/#/settings`
    expect(await app.invoke(desktopChannels.getStartAtLogin, page)).toBe(false)
    await app.invoke(desktopChannels.setStartAtLogin, page, true)
    expect(app.all('login-item-set')).toEqual([
      expect.objectContaining({ settings: { openAtLogin: true, path: process.execPath, args: ['--hidden'] } })
    ])
    expect(await app.invoke(desktopChannels.getStartAtLogin, page)).toBe(true)
    await app.invoke(desktopChannels.setStartAtLogin, page, false)
    expect(await app.invoke(desktopChannels.getStartAtLogin, page)).toBe(false)

    // Windows shuts down: no before-quit, only the windows' session-end events, then the process is ended.
    app.send({ type: 'end-session', killAfterMs: 5_000 })
    const exit = await app.next('utility-process-exited', (o) => o.pid === server.pid)
    expect(exit.code).toBe(0)
    expect(serverLog()).toContain('stop request from the parent process received, shutting down')
    expect(await app.exited).toBe(0)
  })

  it("on macOS: started at login into the tray; an unsigned build's failed notifications; a page that fails to load", async () => {
    firstLaunch()
    const app = start({ platform: 'darwin', argv: ['--hidden'] })
    await app.next('tray-tooltip', (o) => o.text === 'Overseer: no hosts yet')
    expect(app.all('window-created')).toEqual([])

    const page = `${origin}/#/settings`
    expect(await app.invoke(desktopChannels.getStartAtLogin, page)).toBe(false)
    await app.invoke(desktopChannels.setStartAtLogin, page, true)
    expect(await app.invoke(desktopChannels.getStartAtLogin, page)).toBe(true)
    await app.invoke(desktopChannels.setStartAtLogin, page, false)
    expect(await app.invoke(desktopChannels.getStartAtLogin, page)).toBe(false)

    // Unsigned (Electron ≥ 42 on macOS): every notification emits `failed`; the shell logs it.
    app.configure({ notificationFailure: 'Notifications are not allowed for this application' })
    await postFailingEvent()
    const failed = await app.next('notification-failed')
    await waitFor('the failure in the log', () =>
      serverLog().includes(
        `WARN  desktop: a notification could not be shown ("${failed.title}"): Notifications are not allowed for this application`
      )
    )

    // The window opened from the tray cannot load its page: it is shown anyway, with a page saying so.
    app.configure({ failNextLoad: { errorCode: -102, errorDescription: 'ERR_CONNECTION_REFUSED' } })
    app.send({ type: 'tray-click' })
    const failedLoad = await app.next('window-load-failed')
    expect(failedLoad.url).toBe(`${origin}/`)
    const retry = await app.next('window-load', (o) => o.url.startsWith('data:text/html'))
    const html = decodeURIComponent(retry.url.slice(retry.url.indexOf(',') + 1))
    expect(html).toContain('The console could not be loaded')
    expect(html).toContain(`${origin}/: ERR_CONNECTION_REFUSED`)
    expect(html).toContain(`<a href="${origin}/">Try again</a>`)
    await app.next('window-shown')

    // Once the server is back (here: restarted after a crash), the console page is loaded again.
    const beforeCrash = app.seen.length
    process.kill(app.all('utility-process-forked')[0].pid, 'SIGKILL')
    await app.next('window-load', (o) => o.url === `${origin}/`, beforeCrash)
    app.send({ type: 'tray-menu', label: 'Quit Overseer' })
    expect(await app.exited).toBe(0)
  })
})
