// Encrypts agent call-back passwords at rest (they are agent administrator passwords, agent protocol
// §4.2), so a copied database file does not reveal them. The key lives beside the database, mode 0600.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'

const PREFIX = 'v1:'

export class SecretBox {
  constructor(private readonly key: Buffer) {}

  static fromKeyFile(file: string): SecretBox {
    if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' })
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex')
    if (key.length !== 32) throw new Error(`${file} does not hold a 256-bit key`)
    return new SecretBox(key)
  }

  /** Names the key without revealing it: stored with the database, so a server with another key is told at start. */
  fingerprint(): string {
    return createHmac('sha256', this.key).update('overseer secret.key fingerprint').digest('hex').slice(0, 32)
  }

  seal(plain: string): string {
    if (plain === '') return ''
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64')
  }

  open(sealed: string): string {
    if (!sealed.startsWith(PREFIX)) return sealed
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64')
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12))
    decipher.setAuthTag(raw.subarray(12, 28))
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
  }
}
