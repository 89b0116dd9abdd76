import { describe, expect, it } from 'vitest'
import { settingsErrors, type SettingsValues } from '../../../src/renderer/screens/admin/server-settings-form'

const limits = {
  port: { min: 1, max: 65535 },
  sessiontimeout: { min: 60, max: 30 * 24 * 3600 },
  eventretention: { min: 86_400, max: 20 * 365 * 86_400 },
  auditretention: { min: 86_400, max: 20 * 365 * 86_400 },
  forecasthorizon: { min: 3600, max: 365 * 86_400 }
}
const good: SettingsValues = { port: '', minutes: 30, events: 365, audit: 365, forecast: 72, raw: 24, minute: 14, hour: 365, day: 1825 }

describe('settingsErrors', () => {
  it('finds nothing wrong with the defaults', () => {
    expect(Object.values(settingsErrors(good, limits)).filter(Boolean)).toEqual([])
  })

  it('names every invalid field at once, each with its reason', () => {
    const errors = settingsErrors(
      { port: 70000, minutes: 0, events: 0, audit: 0, forecast: 0, raw: 1, minute: 14, hour: 365, day: 70 },
      limits
    )
    expect(errors.port).toBe('expected a whole number from 1 to 65535')
    expect(errors.minutes).toBe('expected a whole number from 1 to 43200')
    expect(errors.events).toBe('expected a whole number from 1 to 7300')
    expect(errors.audit).toBe('expected a whole number from 1 to 7300')
    expect(errors.forecast).toBe('expected a whole number from 1 to 8760')
    expect(errors.raw).toBe('raw retention must be at least 7200 seconds')
    expect(errors.day).toBe('day retention must not be shorter than hour retention')
    expect(errors.minute).toBeUndefined()
    expect(errors.hour).toBeUndefined()
  })
})
