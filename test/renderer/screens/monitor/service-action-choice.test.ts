import { describe, expect, it } from 'vitest'
import { ServiceType } from '../../../../src/shared/codes'
import { serviceActions } from '../../../../src/renderer/api/status'
import { asksFirst, offeredActions } from '../../../../src/renderer/screens/monitor/service-action-choice'

describe('offeredActions', () => {
  it('offers start, stop and restart for processes and programs, and the monitoring switch', () => {
    expect(offeredActions({ typeid: ServiceType.Process, monitorstate: 1 })).toEqual(['start', 'stop', 'restart', 'unmonitor'])
    expect(offeredActions({ typeid: ServiceType.Program, monitorstate: 0 })).toEqual(['start', 'stop', 'restart', 'monitor'])
  })

  it('offers only the monitoring switch for checks that run nothing', () => {
    for (const typeid of [ServiceType.System, ServiceType.Filesystem, ServiceType.RemoteHost, ServiceType.File, ServiceType.Network]) {
      expect(offeredActions({ typeid, monitorstate: 1 })).toEqual(['unmonitor'])
    }
    expect(offeredActions({ typeid: ServiceType.System, monitorstate: 0 })).toEqual(['monitor'])
  })
})

describe('asksFirst', () => {
  it('asks before stop and restart only', () => {
    expect(serviceActions.filter(asksFirst)).toEqual(['stop', 'restart'])
  })
})
