// What the console window shows when its page could not be loaded (the server is down, a proxy or
// firewall refused it): a page that says so and links back, instead of an invisible window.

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Chromium's net::ERR_ABORTED: a load replaced by another, not a failure. */
export const LOAD_ABORTED = -3

export function loadFailurePage(productName: string, url: string, reason: string): string {
  const html = `<!doctype html><meta charset="utf-8"><title>${escapeHtml(productName)}</title>
<body style="font: 15px system-ui, sans-serif; margin: 3em">
<h1 style="font-size: 1.3em">The console could not be loaded</h1>
<p>${escapeHtml(url)}: ${escapeHtml(reason)}.</p>
<p>${escapeHtml(productName)} loads it again once its server is back. <a href="${escapeHtml(url)}">Try again</a></p>`
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`
}
