// The server settings form's values (human units: minutes, hours, days) and their checks in the
// browser: the server's own limits and retention rules (shared/retention.ts), every field at once.
import type { FormErrors } from '@mantine/form'
import { retentionProblems, type RetentionLevel } from '../../../shared/retention'
import type { ServerSettings, SettingsChange } from '../../api/settings'

const HOUR = 3600
const DAY = 86_400

export interface SettingsValues {
  port: number | string
  minutes: number | string
  events: number | string
  audit: number | string
  /** Hours: a resource forecast to be full within them is a Forecast event. */
  forecast: number | string
  raw: number | string
  minute: number | string
  hour: number | string
  day: number | string
}

export const valuesOf = (s: ServerSettings): SettingsValues => ({
  port: s.port ?? '',
  minutes: Math.round(s.sessiontimeout / 60),
  events: Math.round(s.eventretention / DAY),
  audit: Math.round(s.auditretention / DAY),
  forecast: Math.round(s.forecasthorizon / HOUR),
  raw: Math.round(s.retention.raw / HOUR),
  minute: Math.round(s.retention.minute / DAY),
  hour: Math.round(s.retention.hour / DAY),
  day: Math.round(s.retention.day / DAY)
})

export const changeOf = (v: SettingsValues): SettingsChange => ({
  port: v.port === '' ? undefined : Number(v.port),
  sessiontimeout: Number(v.minutes) * 60,
  eventretention: Number(v.events) * DAY,
  auditretention: Number(v.audit) * DAY,
  forecasthorizon: Number(v.forecast) * HOUR,
  retentionraw: Number(v.raw) * HOUR,
  retentionminute: Number(v.minute) * DAY,
  retentionhour: Number(v.hour) * DAY,
  retentionday: Number(v.day) * DAY
})

const within = (value: number, { min, max }: { min: number; max: number }, unit = 1) =>
  Number.isInteger(value) && value >= min / unit && value <= max / unit
    ? undefined
    : `expected a whole number from ${Math.ceil(min / unit)} to ${Math.floor(max / unit)}`

/** Every invalid field with its reason, under the limits the server sent with the settings. */
export function settingsErrors(values: SettingsValues, limits: ServerSettings['limits']): FormErrors {
  const change = changeOf(values)
  const retention = { raw: change.retentionraw, minute: change.retentionminute, hour: change.retentionhour, day: change.retentionday }
  const problems = retentionProblems(retention)
  const errors: FormErrors = {
    port: change.port === undefined ? undefined : within(change.port, limits.port),
    minutes: within(Number(values.minutes), limits.sessiontimeout, 60),
    events: within(Number(values.events), limits.eventretention, DAY),
    audit: within(Number(values.audit), limits.auditretention, DAY),
    forecast: within(Number(values.forecast), limits.forecasthorizon, HOUR)
  }
  for (const level of Object.keys(problems) as RetentionLevel[]) errors[level] = problems[level]
  return errors
}
