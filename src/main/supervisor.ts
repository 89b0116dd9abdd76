// Starts the headless server as a child process, learns its port from the ready message, restarts it
// with backoff when it dies, and stops it without leaving an orphan. Electron-free: the shell passes a
// launcher that makes an Electron utility process; the tests pass one built on child_process.fork.
import { EXIT_PORT_IN_USE, type ServerToShellMessage } from '../shared/desktop-api'
import { defaultBackoff, restartDelay, type BackoffPolicy } from './backoff'

/** The little the supervisor needs from a child process. */
export interface ServerProcess {
  readonly pid: number | undefined
  onMessage(listener: (message: unknown) => void): void
  /** `code` is null when a signal ended the process. */
  onExit(listener: (code: number | null) => void): void
  /** Asks the process to shut down cleanly (SIGTERM). */
  terminate(): void
  /** Ends it at once (SIGKILL). */
  forceKill(): void
}

export type ServerLauncher = (args: string[]) => ServerProcess

export interface ServerEndpoint {
  port: number
  urls: string[]
  /** Set when the server speaks HTTPS: its certificate's SHA-256 fingerprint. */
  tlsFingerprint?: string
}

export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    message = `port ${port} is already in use`
  ) {
    super(message)
  }
}

export class ServerStartError extends Error {}

export type SupervisorEvent =
  | { type: 'ready'; endpoint: ServerEndpoint; pid: number | undefined }
  /** The server is migrating its database (backup first): its ready deadline became migrationTimeoutMs. */
  | { type: 'migrating'; fromVersion: number; toVersion: number }
  | { type: 'crashed'; code: number | null; restartInMs: number; failures: number }
  | { type: 'restart-failed'; error: Error; restartInMs: number; failures: number }
  | { type: 'gave-up'; error: Error; failures: number }

export interface SupervisorOptions {
  launch: ServerLauncher
  /** Every argument but `--port`. */
  args: string[]
  backoff?: BackoffPolicy
  readyTimeoutMs?: number
  /**
   * The deadline from the server's "migrating" message on: the backup (VACUUM INTO) and migration of a
   * multi-GB database can take many minutes, and killing it would only make every retry start over.
   */
  migrationTimeoutMs?: number
  /** How long a clean stop may take before the process is killed. */
  stopTimeoutMs?: number
  /** Messages other than ready/error: the desktop bridge's LEDs, alerts, setup state. */
  onMessage?: (message: ServerToShellMessage) => void
  onEvent?: (event: SupervisorEvent) => void
}

interface Running {
  process: ServerProcess
  exited: Promise<number | null>
  startedAt: number
}

export class ServerSupervisor {
  private current: Running | undefined
  private restartTimer: NodeJS.Timeout | undefined
  private stopping = false
  private failures = 0
  private port = 0
  private readonly backoff: BackoffPolicy

  constructor(private readonly options: SupervisorOptions) {
    this.backoff = options.backoff ?? defaultBackoff
  }

  get pid(): number | undefined {
    return this.current?.process.pid
  }

  /**
   * Starts the server on `port` (0: any free port; undefined: the server's own choice) and resolves once it is ready. Rejects with
   * PortInUseError when the port is taken (try again with another), ServerStartError otherwise.
   * Later crashes restart it on the port it got, so the console's origin stays the same.
   */
  async start(port?: number): Promise<ServerEndpoint> {
    if (this.current) throw new Error('the server is already running')
    clearTimeout(this.restartTimer) // a start by hand replaces a pending restart
    this.stopping = false
    this.failures = 0
    const endpoint = await this.launch(port)
    this.port = endpoint.port
    return endpoint
  }

  /** Stops the server and any pending restart; resolves once the process is gone. */
  async stop(): Promise<void> {
    this.stopping = true
    clearTimeout(this.restartTimer)
    const running = this.current
    if (!running) return
    running.process.terminate()
    const timeout = new Promise<'timeout'>((done) => setTimeout(done, this.options.stopTimeoutMs ?? 5_000, 'timeout').unref())
    if ((await Promise.race([running.exited, timeout])) === 'timeout') {
      running.process.forceKill()
      await running.exited
    }
  }

  private launch(port: number | undefined): Promise<ServerEndpoint> {
    const child = this.options.launch(port === undefined ? this.options.args : [...this.options.args, '--port', String(port)])
    const exited = new Promise<number | null>((done) => child.onExit(done))
    const running: Running = { process: child, exited, startedAt: Date.now() }
    this.current = running
    let portInUse: PortInUseError | undefined

    return new Promise<ServerEndpoint>((resolve, reject) => {
      let ready = false
      let timer: NodeJS.Timeout | undefined
      const deadline = (ms: number, what: string) => {
        clearTimeout(timer)
        timer = setTimeout(() => {
          reject(new ServerStartError(`the server was not ${what} within ${ms} ms`))
          child.forceKill()
        }, ms)
      }
      deadline(this.options.readyTimeoutMs ?? 30_000, 'ready')

      child.onMessage((raw) => {
        const message = raw as ServerToShellMessage
        if (message?.type === 'migrating') {
          if (ready) return
          deadline(this.options.migrationTimeoutMs ?? 2 * 3_600_000, 'done migrating its database')
          this.options.onEvent?.({ type: 'migrating', fromVersion: message.fromVersion, toVersion: message.toVersion })
        } else if (message?.type === 'ready' && !ready) {
          ready = true
          clearTimeout(timer)
          const endpoint = { port: message.port, urls: message.urls, tlsFingerprint: message.tlsFingerprint }
          this.options.onEvent?.({ type: 'ready', endpoint, pid: child.pid })
          resolve(endpoint)
        } else if (message?.type === 'error' && message.code === 'EADDRINUSE') {
          portInUse = new PortInUseError(message.port, message.message)
        } else if (message && typeof message.type === 'string') {
          this.options.onMessage?.(message)
        }
      })

      void exited.then((code) => {
        if (this.current === running) this.current = undefined
        if (!ready) {
          clearTimeout(timer)
          reject(portInUse ?? exitedEarly(code, port))
        } else if (!this.stopping) {
          this.failed({ code, startedAt: running.startedAt })
        }
      })
    })
  }

  /** A run ended (code) or a restart failed (error): restart after the backoff delay, or give up. */
  private failed(failure: { code: number | null; startedAt: number } | { error: Error }): void {
    if ('code' in failure && Date.now() - failure.startedAt >= this.backoff.healthyAfterMs) this.failures = 0
    this.failures++
    const failures = this.failures
    if (failures > this.backoff.maxFailures) {
      const error = 'error' in failure ? failure.error : new ServerStartError(`the server keeps exiting (code ${failure.code})`)
      this.options.onEvent?.({ type: 'gave-up', error, failures })
      return
    }
    const restartInMs = restartDelay(this.backoff, failures)
    this.options.onEvent?.(
      'error' in failure
        ? { type: 'restart-failed', error: failure.error, restartInMs, failures }
        : { type: 'crashed', code: failure.code, restartInMs, failures }
    )
    this.restartTimer = setTimeout(() => {
      if (this.stopping) return
      this.launch(this.port).catch((error: Error) => {
        if (!this.stopping) this.failed({ error })
      })
    }, restartInMs)
  }
}

/**
 * Why a server that exited before its ready message did not start. Its port-in-use status is a taken
 * port only if the port is known (asked for, and not 0): it is the server's own choice otherwise (its
 * stored port or 8080), and "port 0 is in use" would help nobody.
 */
function exitedEarly(code: number | null, port: number | undefined): Error {
  if (code !== EXIT_PORT_IN_USE) return new ServerStartError(`the server exited with code ${code} before it was ready`)
  return port ? new PortInUseError(port) : new ServerStartError('the server exited because the port it chose is in use (its log names it)')
}
