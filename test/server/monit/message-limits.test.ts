import { describe, expect, it } from 'vitest'
import { MessageTooLarge, type MessageLimits } from '../../../src/server/monit/message-limits'
import { MessageParseError, parseMonitMessage } from '../../../src/server/monit/parse-message'
import { largeHeartbeat, serviceName, type LargeMessageShape } from '../../support/large-messages'

const AGENT = 'a11a' + '0'.repeat(28)
const parse = (shape: LargeMessageShape, limits: MessageLimits) => parseMonitMessage(largeHeartbeat(AGENT, shape), limits)

function refusal(body: Buffer, limits: MessageLimits): Error {
  try {
    parseMonitMessage(body, limits)
  } catch (err) {
    return err as Error
  }
  throw new Error('parsed without error')
}

// Each generated service has 1 statistic (its PID) plus one per port test.
describe('parseMonitMessage within limits', () => {
  it('takes a message with exactly the most services and statistics allowed', () => {
    const m = parse({ services: 10, portTestsPerService: 2, serviceGroupMembers: 10 }, { maxServices: 10, maxStatistics: 30 })
    expect(m.services.map((s) => s.name)).toEqual(Array.from({ length: 10 }, (_, i) => serviceName(i + 1)))
    expect(m.services.flatMap((s) => s.statistics)).toHaveLength(30)
    expect(m.serviceGroups[0].services).toHaveLength(10)
  })
})

describe('parseMonitMessage past its limits throws MessageTooLarge', () => {
  it('for one service too many', () => {
    const err = refusal(largeHeartbeat(AGENT, { services: 11 }), { maxServices: 10, maxStatistics: 1000 })
    expect(err).toBeInstanceOf(MessageTooLarge)
    expect(err.message).toBe('more than 10 services in one message')
  })

  it('for one statistic too many, counted over all services', () => {
    const err = refusal(largeHeartbeat(AGENT, { services: 10, portTestsPerService: 2 }), { maxServices: 10, maxStatistics: 29 })
    expect(err).toBeInstanceOf(MessageTooLarge)
    expect(err.message).toBe('more than 29 statistics in one message')
  })

  it('for statistics piled into a single service (port tests)', () => {
    const err = refusal(largeHeartbeat(AGENT, { services: 1, portTestsPerService: 500 }), { maxServices: 10, maxStatistics: 100 })
    expect(err.message).toBe('more than 100 statistics in one message')
  })

  it('for one service-group member too many', () => {
    const err = refusal(largeHeartbeat(AGENT, { services: 5, serviceGroupMembers: 11 }), { maxServices: 10, maxStatistics: 1000 })
    expect(err).toBeInstanceOf(MessageTooLarge)
    expect(err.message).toBe('more than 10 service-group members in one message')
  })

  it('as soon as the limit is passed: what follows is never read', () => {
    const xml = largeHeartbeat(AGENT, { services: 11 }).toString('latin1')
    // Cut right after the 11th service opens: a parser that read on would find a truncated document.
    const open = `<service name="${serviceName(11)}">`
    const cut = Buffer.from(xml.slice(0, xml.indexOf(open) + open.length) + '<pid>1', 'latin1')
    const err = refusal(cut, { maxServices: 10, maxStatistics: 1000 })
    expect(err).toBeInstanceOf(MessageTooLarge)
    expect(err).not.toBeInstanceOf(MessageParseError)
  })
})
