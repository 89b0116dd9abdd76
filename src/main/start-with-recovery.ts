// Starting the server when things go wrong: a taken port offers the next free one (remembered once
// chosen), any other failure offers a retry. The questions are asked through `ask`, so the shell shows
// dialogs and the tests answer directly.
import { PortInUseError, type ServerEndpoint } from './supervisor'

export type PortChoice = { action: 'use'; port: number } | { action: 'retry' } | { action: 'quit' }

export interface StartRecovery {
  start(port: number | undefined): Promise<ServerEndpoint>
  /** True when the start failed because the app is quitting: nothing to ask then. */
  cancelled(): boolean
  /** A free port after the taken one, if any. */
  suggestPort(taken: number): Promise<number | undefined>
  ask: {
    port(taken: number, suggestion: number | undefined): Promise<PortChoice>
    afterFailure(reason: string): Promise<'retry' | 'quit'>
  }
  /** Saves the port the user chose for the next starts. */
  rememberPort(port: number): void
}

/** Resolves with the running server's endpoint, or undefined when the user chose to quit (or is quitting). */
export async function startWithRecovery(port: number | undefined, recovery: StartRecovery): Promise<ServerEndpoint | undefined> {
  for (;;) {
    try {
      return await recovery.start(port)
    } catch (err) {
      if (recovery.cancelled()) return undefined
      const choice: PortChoice =
        err instanceof PortInUseError
          ? await recovery.ask.port(err.port, await recovery.suggestPort(err.port))
          : { action: await recovery.ask.afterFailure((err as Error).message) }
      if (choice.action === 'quit') return undefined
      if (choice.action === 'use') {
        port = choice.port
        recovery.rememberPort(port)
      }
    }
  }
}
