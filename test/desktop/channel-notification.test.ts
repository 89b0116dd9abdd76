// What the shell shows for a `desktop` alert channel's notification, and where clicking it leads.
import { describe, expect, it } from 'vitest'
import { channelNotification } from '../../src/main/alert-notification'

const origin = 'http://127.0.0.1:8080'
const n = { id: 'n-1', title: '[Overseer] sleeper failed on web-1', body: 'process is not running', link: '' }

describe('desktop channel notification', () => {
  it('shows the rendered subject and body', () => {
    expect(channelNotification({ ...n, link: `${origin}/#/events/7` }, origin)).toEqual({
      title: '[Overseer] sleeper failed on web-1',
      body: 'process is not running',
      url: `${origin}/#/events/7`
    })
  })

  it("opens console routes on the window's origin, and nothing of another site", () => {
    expect(channelNotification({ ...n, link: '#/hosts/3' }, origin).url).toBe(`${origin}/#/hosts/3`)
    expect(channelNotification({ ...n, link: '/#/hosts/3' }, origin).url).toBe(`${origin}/#/hosts/3`)
    expect(channelNotification({ ...n, link: 'https://overseer.example.com/#/hosts/3' }, origin).url).toBe(`${origin}/`)
    expect(channelNotification({ ...n, link: `${origin}.evil.test/#/` }, origin).url).toBe(`${origin}/`)
  })
})
