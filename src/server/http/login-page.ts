// The HTML login page (compat AUTH-1): a form posting z_username and z_password to z_security_check.
// API clients scrape it and detect "logged out" by its exact Content-Type, text/html.

export function loginPage(error?: string): string {
  const message = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Overseer – log in</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { display: grid; place-items: center; min-height: 100vh; margin: 0; background: Canvas; }
  form { display: grid; gap: .75rem; width: min(22rem, 90vw); padding: 2rem; border: 1px solid #8884; border-radius: .75rem; }
  h1 { margin: 0 0 .5rem; font-size: 1.4rem; }
  label { display: grid; gap: .25rem; font-size: .9rem; }
  input { font: inherit; padding: .5rem; border-radius: .4rem; border: 1px solid #8888; }
  button { font: inherit; padding: .6rem; border-radius: .4rem; border: 0; background: #087f5b; color: white; cursor: pointer; }
  button:focus-visible, input:focus-visible { outline: 2px solid #12b886; outline-offset: 2px; }
  .error { color: #e03131; margin: 0; }
</style>
</head>
<body>
<form method="post" action="z_security_check">
  <h1>Overseer</h1>
  ${message}
  <label>User name <input name="z_username" autocomplete="username" autofocus required></label>
  <label>Password <input name="z_password" type="password" autocomplete="current-password" required></label>
  <button type="submit">Log in</button>
</form>
</body>
</html>
`
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
