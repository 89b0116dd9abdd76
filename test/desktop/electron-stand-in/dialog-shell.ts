// `dialog.showMessageBox` (answered by the settings' chosen button, else its cancelId), `shell`, and
// the default `session`'s permission handlers and certificate check.
import type { Dialog, MessageBoxOptions, MessageBoxReturnValue, Session, Shell } from 'electron'
import { observer } from './observations'
import { standIn } from './settings'

export const dialog: Pick<Dialog, 'showMessageBox'> = {
  showMessageBox: async (...args: [MessageBoxOptions] | [unknown, MessageBoxOptions]): Promise<MessageBoxReturnValue> => {
    const options = args.length === 1 ? args[0] : args[1]
    observer.record({ kind: 'dialog', title: options.title ?? '', message: options.message, buttons: options.buttons ?? [] })
    return { response: standIn.dialogResponse ?? options.cancelId ?? 0, checkboxChecked: false }
  }
}

export const shell: Pick<Shell, 'openPath' | 'openExternal'> = {
  openPath: async () => '',
  openExternal: async () => {}
}

export const session: {
  defaultSession: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setCertificateVerifyProc'>
} = {
  // The window's certificate check is tested on its own (test/desktop/own-certificate.test.ts).
  defaultSession: { setPermissionRequestHandler: () => {}, setPermissionCheckHandler: () => {}, setCertificateVerifyProc: () => {} }
}
