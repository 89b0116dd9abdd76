import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDesktopApi } from '../../src/main/desktop-api'
import { defaultSettings, loadSettings, saveSettings, SETTINGS_FILE, type DesktopSettings } from '../../src/main/desktop-settings'
import { openServerLog } from '../../src/main/log-file'
import { removeDir } from '../support/built-server'

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'overseer-settings-'))))
afterEach(() => removeDir(dir))
const write = (text: string) => writeFileSync(join(dir, SETTINGS_FILE), text)

describe('desktop settings', () => {
  it('starts from defaults and keeps what was saved', () => {
    // No port: the server chooses (its stored setting, else 8080).
    expect(loadSettings(dir)).toEqual({ settings: { notifications: true, listenHost: '0.0.0.0', tls: true } })
    saveSettings(dir, { notifications: false, port: 8081, listenHost: '127.0.0.1', tls: false })
    expect(loadSettings(dir)).toEqual({ settings: { notifications: false, port: 8081, listenHost: '127.0.0.1', tls: false } })
    expect(readdirSync(dir)).toEqual([SETTINGS_FILE]) // no temporary file left
  })

  it('falls back field by field, and says why when the file is unusable', () => {
    write('{"notifications": false, "port": 99999}')
    expect(loadSettings(dir)).toEqual({ settings: { notifications: false, port: undefined, listenHost: '0.0.0.0', tls: false } })
    write('{"notifications": "no", "port": 9090, "extra": 1, "listenHost": "::1", "tls": "maybe"}')
    expect(loadSettings(dir)).toEqual({ settings: { notifications: true, port: 9090, listenHost: '::1', tls: false } })
    write('{"listenHost": "every interface"}')
    expect(loadSettings(dir)).toEqual({ settings: { notifications: true, port: undefined, listenHost: '0.0.0.0', tls: false } })
    // An install from before TLS (its settings file has no tls) keeps HTTP, its agents' set mmonit lines with it.
    write('{"notifications": true}')
    expect(loadSettings(dir).settings.tls).toBe(false)
    write('{"tls": true}')
    expect(loadSettings(dir).settings.tls).toBe(true)
    write('{"notifications": fal')
    expect(loadSettings(dir)).toEqual({ settings: defaultSettings, problem: `${SETTINGS_FILE} is not valid JSON; using defaults` })
    write('[1]')
    expect(loadSettings(dir).problem).toBe(`${SETTINGS_FILE} is not a JSON object; using defaults`)
  })
})

describe('window.overseerDesktop methods', () => {
  const make = (opened: string[], login: { on: boolean }, openResult = '') => {
    let settings: DesktopSettings = { ...defaultSettings }
    return createDesktopApi({
      version: '1.2.3',
      dataDir: dir,
      openFolder: async (path) => {
        opened.push(path)
        return openResult
      },
      startAtLogin: { get: () => login.on, set: (on) => void (login.on = on) },
      settings: {
        get: () => settings,
        update: (change) => {
          settings = { ...settings, ...change }
          saveSettings(dir, settings)
        }
      }
    })
  }

  it('answers the version, opens the data folder, and stores the toggles', async () => {
    const opened: string[] = []
    const login = { on: false }
    const api = make(opened, login)
    expect(await api.appVersion()).toBe('1.2.3')
    await api.openDataFolder()
    expect(opened).toEqual([dir])
    await api.setStartAtLogin(true)
    expect(await api.getStartAtLogin()).toBe(true)
    await api.setNotificationsEnabled(false)
    expect(await api.getNotificationsEnabled()).toBe(false)
    expect(JSON.parse(readFileSync(join(dir, SETTINGS_FILE), 'utf8'))).toEqual({ notifications: false, listenHost: '0.0.0.0', tls: true })
  })

  it('rejects arguments that are not booleans, whatever the page sends', async () => {
    const login = { on: false }
    const api = make([], login)
    const setLogin = api.setStartAtLogin as (v: unknown) => Promise<void>
    const setNotifications = api.setNotificationsEnabled as (v: unknown) => Promise<void>
    for (const bad of ['true', 1, null, undefined, { valueOf: () => true }]) {
      await expect(setLogin(bad)).rejects.toThrow('enabled must be true or false')
      await expect(setNotifications(bad)).rejects.toThrow('enabled must be true or false')
    }
    expect(login.on).toBe(false)
  })

  it('reports a folder the OS could not open', async () => {
    await expect(make([], { on: false }, 'no file manager').openDataFolder()).rejects.toThrow(`cannot open ${dir}: no file manager`)
  })
})

describe('server log file', () => {
  it('appends, and keeps one previous file once the log grows past its limit', async () => {
    const append = async (text: string) => {
      const log = openServerLog(dir, 10)
      await new Promise<void>((done) => log.end(text, () => done()))
    }
    await append('first\n')
    await append('second\n')
    expect(readFileSync(join(dir, 'logs/server.log'), 'utf8')).toBe('first\nsecond\n')
    await append('third\n')
    expect(readFileSync(join(dir, 'logs/server.log.1'), 'utf8')).toBe('first\nsecond\n')
    expect(readFileSync(join(dir, 'logs/server.log'), 'utf8')).toBe('third\n')
  })

  it('is readable by its owner only, a log of an older version too', async () => {
    mkdirSync(join(dir, 'logs'), { mode: 0o755 })
    writeFileSync(join(dir, 'logs/server.log.1'), 'old\n', { mode: 0o644 })
    const log = openServerLog(dir)
    await new Promise<void>((done) => log.end('line\n', () => done()))
    const mode = (file: string) => statSync(join(dir, file)).mode & 0o777
    expect([mode('logs'), mode('logs/server.log'), mode('logs/server.log.1')]).toEqual([0o700, 0o600, 0o600])
  })
})
