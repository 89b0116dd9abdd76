import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { autostartFile, isAutostartEnabled, setAutostart } from '../../src/main/linux-autostart'
import { removeDir } from '../support/built-server'

let home: string
beforeEach(() => (home = mkdtempSync(join(tmpdir(), 'overseer-home-'))))
afterEach(() => removeDir(home))

describe('Linux start at login (XDG autostart)', () => {
  it('lives in XDG_CONFIG_HOME, or ~/.config', () => {
    expect(autostartFile({}, '/home/ann')).toBe('/home/ann/.config/autostart/overseer.desktop')
    expect(autostartFile({ XDG_CONFIG_HOME: '/cfg' }, '/home/ann')).toBe('/cfg/autostart/overseer.desktop')
  })

  it('writes an entry that starts the app hidden, and removes it', () => {
    const file = autostartFile({}, home)
    expect(isAutostartEnabled(file)).toBe(false)
    setAutostart(file, true, 'Overseer', ['/opt/Apps/Overseer 1.0.AppImage', '--hidden'])
    expect(isAutostartEnabled(file)).toBe(true)
    expect(readFileSync(file, 'utf8')).toBe(
      [
        '[Desktop Entry]',
        'Type=Application',
        'Name=Overseer',
        'Exec="/opt/Apps/Overseer 1.0.AppImage" "--hidden"',
        'X-GNOME-Autostart-enabled=true',
        ''
      ].join('\n')
    )
    setAutostart(file, false, 'Overseer', [])
    expect(isAutostartEnabled(file)).toBe(false)
    setAutostart(file, false, 'Overseer', []) // already off: no error
  })

  it('quotes what the Exec key reserves', () => {
    const file = autostartFile({}, home)
    setAutostart(file, true, 'Overseer', ['/home/a"b/$x`y\\z/100%.AppImage'])
    expect(readFileSync(file, 'utf8')).toContain('Exec="/home/a\\\\"b/\\\\$x\\\\`y\\\\\\\\z/100%%.AppImage"')
  })
})
