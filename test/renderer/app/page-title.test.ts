import { describe, expect, it } from 'vitest'
import type { HostSummary } from '../../../src/shared/api/status'
import { worstLed } from '../../../src/shared/worst-led'
import { faviconUrl, ledCounts, pageTitle, screenName } from '../../../src/renderer/app/page-title'

const summary = (counts: Partial<Record<HostSummary['status'][number]['label'], number>>): HostSummary => ({
  status: (['failed', 'services failed', 'some services failed/unmonitored', 'ok', 'inactive', 'ignored'] as const).map((label) => ({
    label,
    data: counts[label] ?? 0
  }))
})

describe('the tab title and favicon (issue 28)', () => {
  it('names every screen, a service by its name', () => {
    expect(screenName('/')).toBe('Dashboard')
    expect(screenName('/hosts')).toBe('Hosts')
    expect(screenName('/hosts/12')).toBe('Host')
    expect(screenName('/hosts/12/services/web%20server')).toBe('web server (service)')
    expect(screenName('/admin/hosts')).toBe('Host administration')
    expect(screenName('/admin/hosts/3')).toBe('Edit host')
    expect(screenName('/nowhere')).toBeUndefined()
  })

  it('puts the failing hosts in front, only when there are any', () => {
    expect(pageTitle('Hosts', 3)).toBe('(3) Hosts — Overseer')
    expect(pageTitle('Hosts', 0)).toBe('Hosts — Overseer')
    expect(pageTitle(undefined, 1)).toBe('(1) Overseer')
  })

  it('counts as failing what the tray shows red: silent hosts and hosts whose every watched service fails', () => {
    const leds = ledCounts(
      summary({ failed: 1, 'services failed': 2, 'some services failed/unmonitored': 4, ok: 5, inactive: 1, ignored: 1 })
    )
    expect(leds).toEqual({ red: 3, orange: 4, green: 5, gray: 2 })
    expect(worstLed(leds)).toBe('red')
    expect(worstLed(ledCounts(summary({ 'some services failed/unmonitored': 1, ok: 3 })))).toBe('orange')
    expect(worstLed(ledCounts(summary({})))).toBe('gray')
  })

  it('draws the favicon in the LED colour', () => {
    expect(decodeURIComponent(faviconUrl('red'))).toContain('fill="#e03131"')
    expect(faviconUrl('green')).not.toBe(faviconUrl('red'))
  })
})
