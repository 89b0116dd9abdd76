// The stand-in's knobs: what the machine around the app is like. The app process sets them from its
// environment (register.ts) and from the test's commands; in-process tests set them directly.
export const standIn = {
  /** app.getPath('userData'); the single-instance socket lives there too. */
  userData: '',
  /** app.getAppPath(): the folder of package.json. */
  appPath: process.cwd(),
  version: '0.0.0',
  /** The button index every message box answers with; undefined: its cancelId (the safe choice). */
  dialogResponse: undefined as number | undefined,
  /** The next page load fails as Chromium reports it (net error code and text), e.g. a proxy refusing it. */
  failNextLoad: undefined as { errorCode: number; errorDescription: string } | undefined,
  /** Notifications emit `failed` with this text instead of showing: an unsigned macOS build (Electron ≥ 42). */
  notificationFailure: undefined as string | undefined
}
