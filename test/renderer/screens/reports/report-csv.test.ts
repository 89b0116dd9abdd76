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
  it('writes one line per event with an ISO date, the type and state in words', () => {
    expect(eventsCsv([event]).split('\r\n')).toEqual([
      'Date (UTC),Host,Service,Service type,State,Message,Active,Note',
      '2023-11-14T22:13:20.000Z,web-1,nginx,Process,Error,"process is not running, restarting",yes,yes',
      ''
    ])
  })
})

describe('uptimeCsv', () => {
  it('writes one line per item with the report range', () => {
    const report = {
      range: 0, datefrom: 1_700_000_000, dateto: 1_700_003_600, uptime: 99.5, downtime: '18s', serverdowntime: '0m', serverdown: [],
      items: [{ id: 1, active: 1, name: 'web-1', uptime: 99.5, downtime: '18s', events: 2, unknown: '0m' }]
    } as UptimeReport
    expect(uptimeCsv(report, 'Host').split('\r\n')).toEqual([
      'Host,From (UTC),To (UTC),Uptime %,Downtime,Unknown,Events,Watched',
      'web-1,2023-11-14T22:13:20.000Z,2023-11-14T23:13:20.000Z,99.50,18s,0m,2,yes',
      ''
    ])
  })
})
