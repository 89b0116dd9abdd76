import { describe, expect, it } from 'vitest'
import { ServiceType } from '../../../../src/shared/codes'
import type { EventListEntry } from '../../../../src/shared/api/events'
import type { UptimeReport } from '../../../../src/shared/api/uptime'
import { eventsCsv, uptimeCsv } from '../../../../src/renderer/screens/reports/report-csv'

const event: EventListEntry = {
  id: 7, date: 1_700_000_000, hostname: 'web-1', hostid: 1, servicename: 'nginx', servicenameid: 3, event: 'not running',
  eventtype: 1, note: 1, servicetype: ServiceType.Process, state: 1, action: 2, message: 'process is not running, restarting', active: 1
}

describe('eventsCsv', () => {
  it('writes one line per event with an ISO date, the type and state in words, and the text of its notes', () => {
    const noted = { ...event, notes: [{ date: 1_700_000_060, uname: 'admin', message: 'restarted by hand, "ok"' }, { date: 1_700_000_120, uname: 'bob', message: 'fixed' }] }
    expect(eventsCsv([noted, { ...event, id: 8, note: 0, notes: [] }]).split('\r\n')).toEqual([
      'Date (UTC),Host,Service,Service type,State,Message,Active,Notes',
      '2023-11-14T22:13:20.000Z,web-1,nginx,Process,Error,"process is not running, restarting",yes,"2023-11-14T22:14:20.000Z admin: restarted by hand, ""ok""\n2023-11-14T22:15:20.000Z bob: fixed"',
      '2023-11-14T22:13:20.000Z,web-1,nginx,Process,Error,"process is not running, restarting",yes,',
      ''
    ])
  })
})

describe('uptimeCsv', () => {
  const item = { id: 1, active: 1, name: 'web-1', uptime: 100, downtime: '0m', downtimeseconds: 0, events: 2, unknown: '1h 5m', unknownseconds: 3900 } as const
  const report: UptimeReport = {
    range: 0, datefrom: 1_700_000_000, dateto: 1_700_003_600, uptime: 100, downtime: '0m', servicesup: 75, serverdowntime: '0m', serverdown: [],
    items: [{ ...item, servicesup: 75 }, { ...item, id: 2, name: 'db-1', servicesup: null, uptime: 0, downtime: '1h', downtimeseconds: 3600 }]
  }

  it("writes a host's agent reporting and services up apart, and every duration in words and in seconds", () => {
    expect(uptimeCsv(report, 'Host').split('\r\n')).toEqual([
      'Host,From (UTC),To (UTC),Agent reporting %,Services up %,Downtime,Downtime (s),Unknown,Unknown (s),Events,Watched',
      'web-1,2023-11-14T22:13:20.000Z,2023-11-14T23:13:20.000Z,100.00,75.00,0m,0,1h 5m,3900,2,yes',
      // No monitored service: no services-up figure rather than a made-up one.
      'db-1,2023-11-14T22:13:20.000Z,2023-11-14T23:13:20.000Z,0.00,,1h,3600,1h 5m,3900,2,yes',
      ''
    ])
  })

  it("writes a service's uptime, and on every line its host's agent reporting and services up", () => {
    const services: UptimeReport = { ...report, uptime: 98.25, items: [{ ...item, name: 'nginx', uptime: 99.5, downtime: '7m', downtimeseconds: 420 }] }
    expect(uptimeCsv(services, 'Service').split('\r\n')).toEqual([
      'Service,From (UTC),To (UTC),Uptime %,Downtime,Downtime (s),Unknown,Unknown (s),Events,Watched,Host agent reporting %,Host services up %',
      'nginx,2023-11-14T22:13:20.000Z,2023-11-14T23:13:20.000Z,99.50,7m,420,1h 5m,3900,2,yes,98.25,75.00',
      ''
    ])
    // A host that monitors no service: its services-up cell stays empty.
    expect(uptimeCsv({ ...services, servicesup: null }, 'Service').split('\r\n')[1]).toMatch(/,yes,98\.25,$/)
  })
})
