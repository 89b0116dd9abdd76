import { describe, expect, it } from 'vitest'
import { decideNavigation, isPermissionGranted, isSameOrigin } from '../../src/main/navigation-guard'

const origin = 'http://127.0.0.1:8080'

describe('navigation guard', () => {
  it.each([
    'http://127.0.0.1:8080/',
    'http://127.0.0.1:8080/#/events/42',
    'http://127.0.0.1:8080/index.csp?x=1',
    'HTTP://127.0.0.1:8080/login/logout.csp'
  ])('keeps the console origin in the window: %s', (url) => {
    expect(decideNavigation(url, origin)).toBe('allow')
  })

  it.each([
    'https://mmonit.com/monit/documentation/',
    'http://127.0.0.1:8081/', // another port is another program
    'https://127.0.0.1:8080/', // another scheme
    'http://localhost:8080/', // another host name, even if it resolves here
    'http://192.168.1.20:2812/', // an agent's own page
    'mailto:ops@example.com'
  ])('opens other web and mail links in the OS: %s', (url) => {
    expect(decideNavigation(url, origin)).toBe('open-external')
  })

  it.each([
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,<script>1</script>',
    'ms-settings:privacy',
    'smb://server/share',
    'chrome://settings',
    'https://user:secret@example.com/',
    'not a url',
    ''
  ])('refuses anything else: %s', (url) => {
    expect(decideNavigation(url, origin)).toBe('deny')
  })

  it('tells same-origin senders from others', () => {
    expect(isSameOrigin('http://127.0.0.1:8080/#/settings', origin)).toBe(true)
    expect(isSameOrigin('http://127.0.0.1:8080', origin)).toBe(true)
    expect(isSameOrigin('http://127.0.0.1:80800/', origin)).toBe(false)
    expect(isSameOrigin('http://127.0.0.1.evil.example:8080/', origin)).toBe(false)
    expect(isSameOrigin(undefined, origin)).toBe(false)
    expect(isSameOrigin('about:blank', origin)).toBe(false)
  })

  it('denies permission requests, except clipboard writes from the console itself', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read', 'fullscreen', 'unknown']) {
      expect(isPermissionGranted(permission, `${origin}/`, origin), permission).toBe(false)
    }
    expect(isPermissionGranted('clipboard-sanitized-write', `${origin}/#/setup`, origin)).toBe(true)
    expect(isPermissionGranted('clipboard-sanitized-write', origin, origin)).toBe(true) // the check handler passes an origin
    expect(isPermissionGranted('clipboard-sanitized-write', 'https://example.com/', origin)).toBe(false)
    expect(isPermissionGranted('clipboard-sanitized-write', undefined, origin)).toBe(false)
  })
})
