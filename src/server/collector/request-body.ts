// The collector's request body as HTTP delivers it: bounded in size, gzip or plain. Decoded on the
// HTTP thread (Content-Encoding is an HTTP matter), so the ingest thread gets XML and nothing else.
import { gunzip } from 'node:zlib'
import { HttpError } from '../web/http-error'
import { defaultMessageLimits, type MessageLimits } from '../monit/message-limits'

export interface CollectorLimits extends MessageLimits {
  /** Largest body accepted on the wire (compressed or not). */
  maxBodyBytes: number
  /** Largest XML document after gunzip: the bound against gzip bombs. */
  maxXmlBytes: number
  /** Most XML of large messages held at once; past it a large message is answered 503 (bytes-in-flight.ts). */
  maxXmlBytesInFlight: number
  /**
   * Most bytes of bodies held at once, from their first byte until their message is stored: past it
   * a body is answered 503 unread, so slow or many posts cannot hold more (bytes-in-flight.ts).
   */
  maxBodyBytesInFlight: number
}

/**
 * A real message is 4–8 KB for about 11 services (agent protocol §3); 2,000 process services with
 * full statistics (~1.1 KB each in fixture 02) make about 2.2 MB. 8 MiB bounds what one message costs
 * to inflate, decode and scan before its counts are known.
 */
export const defaultCollectorLimits: CollectorLimits = {
  maxBodyBytes: 4 * 1024 * 1024,
  maxXmlBytes: 8 * 1024 * 1024,
  maxXmlBytesInFlight: 32 * 1024 * 1024,
  // Room for some 8,000 usual (gzipped, 1–4 KB) messages at once, or 8 at the size limit.
  maxBodyBytesInFlight: 32 * 1024 * 1024,
  ...defaultMessageLimits
}

/**
 * The XML a body carries; an unknown coding is 415, a gzip bomb 413, broken gzip 400. Inflated on
 * libuv's thread pool: a synchronous gunzip of megabytes held up every other request on this thread.
 */
export async function decodeBody(body: Buffer, encoding: string | undefined, maxXmlBytes: number): Promise<Buffer> {
  const coding = (encoding ?? 'identity').trim().toLowerCase()
  if (coding === 'identity' || coding === '') return body
  if (coding !== 'gzip' && coding !== 'x-gzip') throw new HttpError(415, `unsupported Content-Encoding: ${coding}`)
  return new Promise((resolve, reject) => {
    gunzip(body, { maxOutputLength: maxXmlBytes }, (err, xml) => {
      if (!err) return resolve(xml)
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        return reject(new HttpError(413, `decompressed body exceeds ${maxXmlBytes} bytes`))
      }
      reject(new HttpError(400, `body is not valid gzip data: ${err.message}`))
    })
  })
}
