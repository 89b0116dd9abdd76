import { describe, expect, it } from 'vitest'
import { trayIconFile, trayState } from '../../src/main/tray-led'
import { worstLed } from '../../src/shared/worst-led'

const leds = (red = 0, orange = 0, green = 0, gray = 0) => ({ red, orange, green, gray })

describe('tray LED', () => {
  it('shows the worst LED: red, then orange, then green; gray counts only when alone', () => {
    expect(worstLed(leds(1, 5, 20, 3))).toBe('red')
    expect(worstLed(leds(0, 1, 20, 3))).toBe('orange')
    expect(worstLed(leds(0, 0, 1, 30))).toBe('green')
    expect(worstLed(leds(0, 0, 0, 2))).toBe('gray')
    expect(worstLed(leds())).toBe('gray')
  })

  it('counts the hosts in the tooltip', () => {
    expect(trayState('Overseer', 'running', leds(1, 0, 3, 1))).toEqual({
      color: 'red',
      tooltip: 'Overseer: 5 hosts (1 red, 3 green, 1 gray)'
    })
    expect(trayState('Overseer', 'running', leds(0, 0, 1))).toEqual({ color: 'green', tooltip: 'Overseer: 1 host (1 green)' })
    expect(trayState('Overseer', 'running', leds())).toEqual({ color: 'gray', tooltip: 'Overseer: no hosts yet' })
  })

  it('is gray while the server is not running, whatever the last counts were', () => {
    expect(trayState('Overseer', 'restarting', leds(2))).toEqual({ color: 'gray', tooltip: 'Overseer: the server is restarting' })
    expect(trayState('Overseer', 'stopped', leds(2))).toEqual({ color: 'gray', tooltip: 'Overseer: the server is stopped' })
    expect(trayState('Overseer', 'starting', undefined)).toEqual({ color: 'gray', tooltip: 'Overseer: starting…' })
    expect(trayState('Overseer', 'migrating', undefined)).toEqual({
      color: 'gray',
      tooltip: 'Overseer: upgrading the database (this can take a while)…'
    })
  })

  it('picks the icon size per platform (Electron adds the @2x file itself)', () => {
    expect(trayIconFile('red', 'win32')).toBe('red-16.png')
    expect(trayIconFile('orange', 'darwin')).toBe('orange-16.png')
    expect(trayIconFile('green', 'linux')).toBe('green-32.png')
  })
})
