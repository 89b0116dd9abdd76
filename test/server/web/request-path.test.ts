import { describe, expect, it } from 'vitest'
import { isCollectorUrl } from '../../../src/server/collector/route'
import { requestPath } from '../../../src/server/web/request-path'

describe('requestPath', () => {
  it.each([
    ['/collector', '/collector'],
    ['/collector?a=1&b=/../x', '/collector'],
    ['//collector', '/collector'],
    ['///collector//', '/collector/'],
    ['/collector/../collector', '/collector'],
    ['/./collector', '/collector'],
    ['/../../collector', '/collector'],
    ['/%63ollector', '/collector'],
    ['/a%2F..%2Fcollector', '/collector'],
    ['/api/2/status/hosts/list', '/api/2/status/hosts/list'],
    ['/.well-known/x', '/.well-known/x']
  ])('%s → %s', (url, path) => {
    expect(requestPath(url)).toBe(path)
  })

  it('is undefined for malformed percent-encoding', () => {
    expect(requestPath('/collector%')).toBeUndefined()
    expect(requestPath('/%E0%A4%A')).toBeUndefined()
  })
})

describe('isCollectorUrl', () => {
  it.each(['/collector', '/collector?x', '//collector', '/collector/../collector', '/x/../collector', '/%63ollector'])(
    '%s is the collector',
    (url) => {
      expect(isCollectorUrl(url)).toBe(true)
    }
  )

  it.each(['/collector/', '/collectors', '/collector/x', '/Collector', '/', 'http://host/collector', '/collector%', undefined])(
    '%s is not',
    (url) => {
      expect(isCollectorUrl(url)).toBe(false)
    }
  )
})
