// The part of @xmpp/client 0.14 (no bundled types) that the jabber channel uses.
declare module '@xmpp/client' {
  import type { EventEmitter } from 'node:events'

  export interface XmlElement {
    name: string
    attrs: Record<string, string | undefined>
    is(name: string, xmlns?: string): boolean
    getChild(name: string, xmlns?: string): XmlElement | undefined
    getChildText(name: string, xmlns?: string): string | null
    getChildElements(): XmlElement[]
    text(): string
    toString(): string
  }

  export function xml(
    name: string,
    attrs?: Record<string, string | undefined> | null,
    ...children: Array<XmlElement | string | null | undefined>
  ): XmlElement

  export interface Jid {
    local: string
    domain: string
    resource: string
    bare(): Jid
    toString(): string
  }
  export function jid(address: string): Jid

  /** A transport: a Connection subclass whose prototype carries Socket and Parser. */
  export interface Transport {
    prototype: {
      socketParameters(service: string): unknown
      Socket: new () => EventEmitter
      Parser: new () => EventEmitter & { write(data: string): void; end(data?: string): void }
    }
  }

  export type Authenticate = (credentials: { username: string; password: string }, mechanism: string, userAgent?: unknown) => Promise<void>

  export interface ClientOptions {
    service?: string
    domain?: string
    resource?: string
    username?: string
    password?: string
    credentials?: (authenticate: Authenticate, mechanisms: string[], fast: unknown, entity: XmppClient) => Promise<void>
    timeout?: number
    lang?: string
  }

  export interface XmppClient extends EventEmitter {
    status: string
    timeout: number
    transports: Transport[]
    reconnect: { stop(): void }
    iqCaller: { request(stanza: XmlElement, timeout?: number): Promise<XmlElement> }
    isSecure(): boolean
    start(): Promise<Jid>
    stop(): Promise<unknown>
    send(element: XmlElement): Promise<void>
  }

  export function client(options?: ClientOptions): XmppClient
}
