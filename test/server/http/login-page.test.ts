import { describe, expect, it } from 'vitest'
import { loginPage } from '../../../src/server/http/login-page'

describe('loginPage', () => {
  it('starts empty, with the cursor in the user name', () => {
    const page = loginPage()
    expect(page).toMatch(/<input name="z_username" autocomplete="username" required autofocus>/)
    expect(page).not.toContain('role="alert"')
  })

  it('after a failure keeps the user name, escaped, and puts the cursor in the password', () => {
    const page = loginPage({ error: 'Invalid username or password', uname: '"><script>x</script>' })
    expect(page).toContain('value="&#34;&#62;&#60;script&#62;x&#60;/script&#62;"')
    expect(page).not.toContain('<script>')
    expect(page).toMatch(/name="z_password" type="password" autocomplete="current-password" required autofocus/)
    expect(page).toContain('<p class="error" role="alert">Invalid username or password</p>')
  })
})
