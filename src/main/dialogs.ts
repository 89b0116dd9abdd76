// Electron adapter: the questions the shell asks when the server cannot run.
import { dialog } from 'electron'
import type { PortChoice } from './start-with-recovery'

/** The port is taken: use the suggested free one (agents' URL must then change), try again, or quit. */
export async function askForAnotherPort(productName: string, taken: number, suggestion: number | undefined): Promise<PortChoice> {
  const buttons = [...(suggestion ? [`Use port ${suggestion}`] : []), 'Try again', 'Quit']
  const { response } = await dialog.showMessageBox({
    type: 'error',
    title: `${productName}: port ${taken} is in use`,
    message: `Port ${taken} is already in use`,
    detail:
      `Another program, perhaps M/Monit or a second ${productName}, is listening on port ${taken}. ` +
      'Stop it and try again, or let the server listen on another port: Monit agents must then post to that port ' +
      `(change the port in each agent's "set mmonit" URL). The choice is remembered.`,
    buttons,
    defaultId: 0,
    cancelId: buttons.length - 1,
    noLink: true
  })
  const label = buttons[response]
  if (label === 'Quit') return { action: 'quit' }
  if (label === 'Try again') return { action: 'retry' }
  return { action: 'use', port: suggestion! }
}

/** The server failed to start or keeps stopping: retry, or quit; the log file says why. */
export async function askAfterServerFailure(productName: string, reason: string, logFile: string): Promise<'retry' | 'quit'> {
  const { response } = await dialog.showMessageBox({
    type: 'error',
    title: `${productName}: the server is not running`,
    message: `${productName} could not run its server`,
    detail: `${reason}.\n\nDetails are in ${logFile}.`,
    buttons: ['Try again', 'Quit'],
    defaultId: 0,
    cancelId: 1,
    noLink: true
  })
  return response === 0 ? 'retry' : 'quit'
}
