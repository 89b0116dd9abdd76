// The collector's request body as HTTP delivers it: bounded in size, gzip or plain. Decoded on the
// HTTP thread (Content-Encoding is an HTTP matter), so the ingest thread gets XML and nothing else.
import { gunzipSync } from 'node:zlib'
import { HttpError } from '../http/errors'

export interface CollectorLimits {
  /** Largest body accepted on the wire (compressed or not). */
  maxBodyBytes: number
  /** Largest XML document after gunzip: the bound against gzip bombs. */
  maxXmlBytes: number
}

export const defaultCollectorLimits: CollectorLimits = { maxBodyBytes: 4 * 1024 * 1024, maxXmlBytes: 32 * 1024 * 1024 }

/** The XML a body carries; an unknown coding is 415, a gzip bomb 413, broken gzip 400. */
export function decodeBody(body: Buffer, encoding: string | undefined, maxXmlBytes: number): Buffer {
  const coding = (encoding ?? 'identity').trim().toLowerCase()
  if (coding === 'identity' || coding === '') return body
  if (coding !== 'gzip' && coding !== 'x-gzip') throw new HttpError(415, `unsupported Content-Encoding: ${coding}`)
  try {
    return gunzipSync(body, { maxOutputLength: maxXmlBytes })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new HttpError(413, `decompressed body exceeds ${maxXmlBytes} bytes`)
    }
    throw new HttpError(400, `body is not valid gzip data: ${(err as Error).message}`)
  }
}
