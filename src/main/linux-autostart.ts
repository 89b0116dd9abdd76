// Start at login on Linux, where Electron's login-item API does nothing: an XDG autostart entry
// (~/.config/autostart/overseer.desktop), which GNOME, KDE, XFCE and others honour.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'

export function autostartFile(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'autostart', 'overseer.desktop')
}

export function isAutostartEnabled(file: string): boolean {
  return existsSync(file)
}

/**
 * Quotes an argument for a desktop entry's Exec key (Desktop Entry spec, "The Exec key"): inside double
 * quotes " ` $ \ take a backslash, then the string-value rule doubles every backslash, and a literal %
 * is written %%.
 */
function execArgument(arg: string): string {
  const quoted = arg
    .replace(/["`$\\]/g, (c) => `\\${c}`)
    .replaceAll('\\', '\\\\')
    .replaceAll('%', '%%')
  return `"${quoted}"`
}

/** `command`: the executable (the AppImage itself when run from one) followed by its arguments. */
export function setAutostart(file: string, enabled: boolean, productName: string, command: readonly string[]): void {
  if (!enabled) {
    rmSync(file, { force: true })
    return
  }
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(
    file,
    [
      '[Desktop Entry]',
      'Type=Application',
      `Name=${productName}`,
      `Exec=${command.map(execArgument).join(' ')}`,
      'X-GNOME-Autostart-enabled=true',
      ''
    ].join('\n')
  )
}
