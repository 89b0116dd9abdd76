import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { decodeBody } from '../../../src/server/collector/request-body'

const MiB = 2 ** 20

describe('decodeBody', () => {
  it('inflates gzip off the HTTP thread: timers keep firing while a gzip bomb is inflated up to the limit', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * MiB, 0x20))
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    // Started from a microtask, so that a synchronous inflate (as before) could not let a timer in.
    const decoded = Promise.resolve().then(() => decodeBody(bomb, 'gzip', 32 * MiB))
    await expect(decoded).rejects.toMatchObject({ statusCode: 413, message: `decompressed body exceeds ${32 * MiB} bytes` })
    clearInterval(timer)
    expect(ticks).toBeGreaterThan(0)
  })

  it('gives back the XML of a gzip body, and a plain body as it is', async () => {
    const xml = Buffer.from('<monit id="x"><services/></monit>')
    expect((await decodeBody(gzipSync(xml), 'gzip', MiB)).equals(xml)).toBe(true)
    expect(await decodeBody(xml, undefined, MiB)).toBe(xml)
  })

  it('answers 400 to broken gzip and 415 to another coding', async () => {
    await expect(decodeBody(Buffer.from('not gzip'), 'gzip', MiB)).rejects.toMatchObject({ statusCode: 400 })
    await expect(decodeBody(Buffer.from('x'), 'br', MiB)).rejects.toMatchObject({ statusCode: 415 })
  })
})
