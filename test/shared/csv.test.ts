import { describe, expect, it } from 'vitest'
import { toCsv } from '../../src/shared/csv'

describe('toCsv', () => {
  it('writes a header and rows with CRLF, quoting only what needs it', () => {
    expect(
      toCsv(
        ['Host', 'Events'],
        [
          ['alpha', 3],
          ['beta, gamma', 0]
        ]
      )
    ).toBe('Host,Events\r\nalpha,3\r\n"beta, gamma",0\r\n')
  })

  it('doubles quotes and keeps line breaks inside a quoted field', () => {
    expect(toCsv(['Message'], [['said "no"\nthen left']])).toBe('Message\r\n"said ""no""\nthen left"\r\n')
  })

  it('defuses text a spreadsheet would run as a formula, but not numbers', () => {
    expect(
      toCsv(
        ['Service', 'Delta'],
        [
          ['=HYPERLINK("x")', -5],
          ['@sum', 1]
        ]
      )
    ).toBe('Service,Delta\r\n"\'=HYPERLINK(""x"")",-5\r\n\'@sum,1\r\n')
  })
})
