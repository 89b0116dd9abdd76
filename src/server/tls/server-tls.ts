// The certificate the server serves now: read at start, replaced when its files change (tls-files.ts).
import type { Logger } from '../log'
import { loadTls, tlsFilesOf, watchTls, type LoadedTls, type TlsFiles, type TlsSource } from './tls-files'

/** How often the certificate files are looked at: a renewal is served within this (ms). */
const DEFAULT_POLL_MS = 5_000

export class ServerTls {
  private listeners: ((loaded: LoadedTls) => void)[] = []
  private readonly stopWatching: () => void

  private constructor(
    readonly files: TlsFiles,
    private loaded: LoadedTls,
    log: Logger,
    pollMs: number
  ) {
    this.stopWatching = watchTls(
      files,
      pollMs,
      (next) => {
        this.loaded = next
        log.info(`TLS: serving the renewed certificate of ${files.certFile}, SHA-256 fingerprint ${next.fingerprint}`)
        for (const listener of this.listeners) listener(next)
      },
      (err) => log.error(`TLS: keeping the certificate served so far: ${err.message}`)
    )
  }

  /** Throws when the files cannot be served: the server must not start without the TLS it was asked for. */
  static start(source: TlsSource, dataDir: string, log: Logger, pollMs = DEFAULT_POLL_MS): ServerTls {
    const files = tlsFilesOf(source, dataDir)
    if (files.made) log.info(`TLS: made a self-signed certificate ${files.certFile} for this machine's names`)
    const loaded = loadTls(files)
    log.info(`TLS: serving ${files.certFile}, SHA-256 fingerprint ${loaded.fingerprint}`)
    return new ServerTls(files, loaded, log, pollMs)
  }

  get current(): LoadedTls {
    return this.loaded
  }

  onChange(listener: (loaded: LoadedTls) => void): void {
    this.listeners.push(listener)
  }

  close(): void {
    this.stopWatching()
    this.listeners = []
  }
}
