// electron-builder's afterPack hook (npmRebuild is off): puts better-sqlite3 built for Electron's ABI
// into the packed app's own copy (app.asar.unpacked), in place of the Node build that was copied from
// node_modules, and refuses to go on unless the module there is for Electron's ABI.
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AfterPackContext } from 'electron-builder'
import { betterSqlite3ForElectron } from './better-sqlite3-for-electron'
import { installedElectron, nativeModuleAbi } from './native-abi'

/** electron-builder's Arch enum, by value. */
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal']

export const UNPACKED_MODULE = 'app.asar.unpacked/node_modules/better-sqlite3/build/Release/better_sqlite3.node'

export function resourcesDir(
  context: Pick<AfterPackContext, 'appOutDir' | 'electronPlatformName'> & { packager: { appInfo: { productFilename: string } } }
): string {
  return context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas'
    ? join(context.appOutDir, `${context.packager.appInfo.productFilename}.app/Contents/Resources`)
    : join(context.appOutDir, 'resources')
}

/** Copies a native module into the app, after checking it is built for `abi`. */
export function installNativeModule(built: string, destination: string, abi: number): void {
  const builtFor = nativeModuleAbi(built)
  if (builtFor !== abi) {
    throw new Error(
      `${built} is built for ABI ${builtFor ?? 'unknown'}, but the packaged Electron needs ABI ${abi}: ` +
        'it would fail to load in the app'
    )
  }
  copyFileSync(built, destination)
}

export default async function afterPack(context: AfterPackContext): Promise<void> {
  const projectDir = context.packager.info.projectDir
  const electron = installedElectron(projectDir)
  const platform = context.electronPlatformName as NodeJS.Platform
  if (platform !== process.platform) {
    throw new Error(`better-sqlite3 is built on the OS it runs on: package for ${platform} on ${platform} (this is ${process.platform})`)
  }
  const built = await betterSqlite3ForElectron(projectDir, { electron, platform, arch: ARCH_NAMES[context.arch] })
  installNativeModule(built, join(resourcesDir(context), UNPACKED_MODULE), electron.abi)
}
