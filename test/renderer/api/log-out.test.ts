// The console's logout: a POST with the session's CSRF token (a page of another site cannot forge it),
// then the login form.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { logOut, setCsrfToken } from '../../../src/renderer/api/client'

afterEach(() => vi.unstubAllGlobals())

describe('logOut', () => {
  it('posts to /login/logout.csp with the CSRF token, then leaves for /index.csp', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 200 }))
    const assign = vi.fn()
    vi.stubGlobal('fetch', fetch)
    vi.stubGlobal('window', { location: { assign } })
    setCsrfToken('f00d')
    await logOut()
    expect(fetch).toHaveBeenCalledWith('/login/logout.csp', expect.objectContaining({ method: 'POST', headers: { CSRFToken: 'f00d' } }))
    expect(assign).toHaveBeenCalledWith('/index.csp')
  })
})
