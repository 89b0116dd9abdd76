// The HTML login page (compat AUTH-1): a form posting z_username and z_password to z_security_check;
// and, in the same look, the page answered while the server cannot serve its data.
// API clients scrape it and detect "logged out" by its exact Content-Type, text/html. It looks like the
// console (its header, Mantine's teal, fonts and fields, light or dark as the OS says), and after a
// failed attempt it keeps the user name and puts the cursor in the password.

import { SSO_LOGIN_PATH } from './sso-paths'

export interface LoginPageOptions {
  error?: string
  /** The user name of the failed attempt, filled in again. */
  uname?: string
  /** Offer "Log in with single sign-on" (the server's OpenID Connect provider). */
  singleSignOn?: boolean
}

export function loginPage({ error, uname, singleSignOn }: LoginPageOptions = {}): string {
  const message = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''
  const again = uname !== undefined && uname !== ''
  return page(
    'Overseer – log in',
    `<form method="post" action="z_security_check">
  <h2>Log in</h2>
  ${message}
  <label>User name <input name="z_username" autocomplete="username" required${again ? ` value="${escapeHtml(uname)}"` : ' autofocus'}></label>
  <label>Password <input name="z_password" type="password" autocomplete="current-password" required${again ? ' autofocus' : ''}></label>
  <button type="submit">Log in</button>
</form>${singleSignOn ? `\n<p class="sso"><a href="${SSO_LOGIN_PATH}">Log in with single sign-on</a></p>` : ''}`
  )
}

/** Seconds between the unavailable page's own reloads. */
const UNAVAILABLE_PAGE_REFRESH_SEC = 10

/** A page asked for while the server cannot serve it (a 503: its database out of reach): says so, and reloads itself. */
export function unavailablePage(problem: string): string {
  return page(
    'Overseer – unavailable',
    `<section role="alert">
  <h2>The server cannot serve its data</h2>
  <p class="error">${escapeHtml(problem)}</p>
  <p>This page tries again every ${UNAVAILABLE_PAGE_REFRESH_SEC} seconds.</p>
</section>`,
    `<meta http-equiv="refresh" content="${UNAVAILABLE_PAGE_REFRESH_SEC}">`
  )
}

function page(title: string, main: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${head}<title>${title}</title>
<style>
  :root {
    color-scheme: light dark; --text: #000; --body: #fff; --border: #dee2e6; --input: #ced4da; --dimmed: #60676e;
    --teal: #087a57; --teal-hover: #066046; --red: #c52929;
    font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; line-height: 1.55;
  }
  @media (prefers-color-scheme: dark) {
    :root { --text: #c9c9c9; --body: #242424; --border: #424242; --input: #424242; --dimmed: #a6a6a6; --red: #ff8787; }
  }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; background: var(--body); color: var(--text); font-size: 16px; }
  header { height: 52px; display: flex; align-items: center; padding: 0 16px; border-bottom: 1px solid var(--border); }
  header h1 { margin: 0; font-size: 1.125rem; font-weight: 700; }
  main { display: grid; place-items: center; padding: 48px 16px; }
  form, section { display: grid; gap: 16px; width: min(24rem, 100%); padding: 24px; border: 1px solid var(--border); border-radius: 4px; }
  h2 { margin: 0; font-size: 1.375rem; font-weight: 700; }
  label { display: grid; gap: 4px; font-size: 14px; font-weight: 500; }
  input { font: inherit; font-size: 14px; height: 36px; padding: 0 12px; border-radius: 4px; border: 1px solid var(--input);
    background: var(--body); color: var(--text); }
  input:focus { outline: none; border-color: var(--teal); }
  button { font: inherit; font-size: 14px; font-weight: 600; height: 36px; border-radius: 4px; border: 0; background: var(--teal);
    color: #fff; cursor: pointer; }
  button:hover { background: var(--teal-hover); }
  button:focus-visible, input:focus-visible { outline: 2px solid var(--teal); outline-offset: 2px; }
  .error { color: var(--red); margin: 0; font-size: 14px; }
</style>
</head>
<body>
<header><h1>Overseer</h1></header>
<main>
${main}
</main>
</body>
</html>
`
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
