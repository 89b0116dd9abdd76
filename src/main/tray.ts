// Electron adapter: the tray icon (coloured by the worst LED) and its menu.
import { join } from 'node:path'
import { Menu, Tray, nativeImage } from 'electron'
import { trayIconFile, type TrayState } from './tray-led'

export interface TrayActions {
  open(): void
  setNotificationsPaused(paused: boolean): void
  quit(): void
}

export class StatusTray {
  private readonly tray: Tray
  private shown: TrayState | undefined

  constructor(
    private readonly iconDir: string,
    productName: string,
    initial: TrayState,
    actions: TrayActions
  ) {
    this.tray = new Tray(this.image(initial))
    this.tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: `Open ${productName}`, click: () => actions.open() },
        { label: 'Pause notifications', type: 'checkbox', checked: false, click: (item) => actions.setNotificationsPaused(item.checked) },
        { type: 'separator' },
        { label: `Quit ${productName}`, click: () => actions.quit() }
      ])
    )
    // Windows and most Linux panels open on a click; macOS shows the menu instead.
    this.tray.on('click', () => actions.open())
    this.show(initial)
  }

  show(state: TrayState): void {
    if (this.shown?.color !== state.color) this.tray.setImage(this.image(state))
    if (this.shown?.tooltip !== state.tooltip) this.tray.setToolTip(state.tooltip)
    this.shown = state
  }

  private image(state: TrayState) {
    return nativeImage.createFromPath(join(this.iconDir, trayIconFile(state.color, process.platform)))
  }
}
