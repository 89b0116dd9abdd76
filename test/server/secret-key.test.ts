// The secret.key sealing a database's secrets (agent call-back passwords, alert channel secrets) is
// checked at start against the fingerprint the first server stored: a server with another key (a second
// instance given none, a key file replaced) refuses to start and says why, instead of failing on every
// agent message whose host has sealed credentials. With the built server, on either engine.
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SecretBox } from '../../src/server/auth/secret-box'
import { removeDir, startBuiltServer } from '../support/built-server'

let dataDir: string | undefined
afterAll(() => {
  if (dataDir) removeDir(dataDir)
})

describe('secret.key', () => {
  it('has a fingerprint that names the key without revealing it', () => {
    const key = randomBytes(32)
    const fingerprint = new SecretBox(key).fingerprint()
    expect(fingerprint).toMatch(/^[0-9a-f]{32}$/)
    expect(new SecretBox(Buffer.from(key)).fingerprint()).toBe(fingerprint)
    expect(new SecretBox(randomBytes(32)).fingerprint()).not.toBe(fingerprint)
    expect(fingerprint).not.toContain(key.toString('hex').slice(0, 8))
  })

  it('another key on the same database: the server refuses to start and says why; with the right one it starts', async () => {
    const first = await startBuiltServer()
    dataDir = first.dataDir
    await first.stop()
    const keyFile = join(dataDir, 'secret.key')
    const key = readFileSync(keyFile, 'utf8')

    writeFileSync(keyFile, randomBytes(32).toString('hex'))
    const refused = await startBuiltServer({ dataDir }).then(
      () => undefined,
      (err: Error) => err.message
    )
    expect(refused).toMatch(/exited with code 1 before it was ready/)
    expect(refused).toContain(`${keyFile} is not the key this database's secrets are sealed with`)

    writeFileSync(keyFile, key)
    const again = await startBuiltServer({ dataDir })
    await again.stop()
  }, 30_000)
})
