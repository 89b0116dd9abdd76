// Electron adapter: applies the navigation guard and the permission policy to every web contents and
// to the default session. `origin()` is read on each decision, since a restart may change the port.
import { app, session, shell } from 'electron'
import { decideNavigation, isPermissionGranted } from './navigation-guard'

export function enforceConsoleOrigin(origin: () => string): void {
  app.on('web-contents-created', (_event, contents) => {
    const guard = (event: { preventDefault(): void }, url: string) => {
      const decision = decideNavigation(url, origin())
      if (decision === 'allow') return
      event.preventDefault()
      if (decision === 'open-external') void shell.openExternal(url)
    }
    contents.on('will-navigate', (event) => guard(event, event.url))
    contents.on('will-redirect', (event) => guard(event, event.url))
    contents.on('will-attach-webview', (event) => event.preventDefault())
    // No second window: a console page opens in this one, other sites in the OS browser.
    contents.setWindowOpenHandler(({ url }) => {
      const decision = decideNavigation(url, origin())
      if (decision === 'allow') void contents.loadURL(url)
      if (decision === 'open-external') void shell.openExternal(url)
      return { action: 'deny' }
    })
  })
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isPermissionGranted(permission, details.requestingUrl, origin()))
  )
  session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionGranted(permission, requestingOrigin, origin())
  )
}
