// `Tray`, `Menu` and `nativeImage`: what the tray shows (the icon file, which must exist, and the
// tooltip) and a menu whose items the test can click.
import { EventEmitter } from 'node:events'
import { existsSync } from 'node:fs'
import type {
  Menu as ElectronMenu,
  MenuItem,
  MenuItemConstructorOptions,
  NativeImage as ElectronNativeImage,
  Tray as ElectronTray
} from 'electron'
import { noModifierKeys } from './app-events'
import { observer } from './observations'

/** Kept outside the classes, so that Electron's own NativeImage and Menu are assignable to the stand-ins (the type check). */
const imagePaths = new WeakMap<NativeImage, string>()
const menuTemplates = new WeakMap<Menu, MenuItemConstructorOptions[]>()

export class NativeImage implements Pick<ElectronNativeImage, 'isEmpty'> {
  constructor(path: string) {
    imagePaths.set(this, path)
  }

  /** Electron returns an empty image for a file it cannot read. */
  isEmpty(): boolean {
    return !existsSync(imagePaths.get(this)!)
  }
}

export const nativeImage: Pick<(typeof import('electron'))['nativeImage'], 'createFromPath'> = {
  createFromPath: (path: string) => new NativeImage(path) as ElectronNativeImage
}

export class Menu {
  static buildFromTemplate(template: Array<MenuItemConstructorOptions | MenuItem>): ElectronMenu {
    const menu = new Menu()
    menuTemplates.set(
      menu,
      template.map((item) => ({ ...item }) as MenuItemConstructorOptions)
    )
    return menu as ElectronMenu
  }
}

function labelsOf(menu: Menu | null): string[] {
  return (menu ? menuTemplates.get(menu)! : []).map((item) => item.label ?? `(${item.type})`)
}

/** A click as the OS delivers it: a checkbox toggles first, then its click handler runs. */
export function clickMenuItem(menu: Menu, label: string): void {
  const item = menuTemplates.get(menu)!.find((i) => i.label === label)
  if (!item) throw new Error(`stand-in: no menu item '${label}' in ${JSON.stringify(labelsOf(menu))}`)
  if (item.type === 'checkbox') item.checked = !item.checked
  item.click?.(item as unknown as MenuItem, undefined, noModifierKeys) // the template's fields are what a click handler reads
}

export class Tray extends EventEmitter implements Pick<ElectronTray, 'setImage' | 'setToolTip' | 'setContextMenu'> {
  /** The tray the app made last: the one the test clicks. */
  static current: Tray | undefined
  menu: Menu | null = null

  constructor(image: NativeImage | string) {
    super()
    this.setImage(image)
    Tray.current = this
  }

  setImage(image: NativeImage | string): void {
    const file = typeof image === 'string' ? image : imagePaths.get(image)!
    observer.record({ kind: 'tray-image', file, empty: new NativeImage(file).isEmpty() })
  }

  setToolTip(text: string): void {
    observer.record({ kind: 'tray-tooltip', text })
  }

  setContextMenu(menu: Menu | null): void {
    this.menu = menu
    observer.record({ kind: 'tray-menu', labels: labelsOf(menu) })
  }
}
