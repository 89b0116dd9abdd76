// The real Monit 5.33.0 payloads in test/fixtures/monit (described in docs/development.md, "Test fixtures").
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'

export const FIXTURES_DIR = resolve(__dirname, '../fixtures/monit')

export function fixture(name: string): Buffer {
  return readFileSync(resolve(FIXTURES_DIR, name.includes('.') ? name : `${name}.xml`))
}

export function fixtureNames(): string[] {
  return readdirSync(FIXTURES_DIR)
    .filter((f) => f.endsWith('.xml'))
    .sort()
}

/** The same payload from another agent: a different `<monit id>` (and hostname, so hosts differ by name too). */
export function asAgent(xml: Buffer, id: string, hostname = `host-${id.slice(-6)}`): Buffer {
  return Buffer.from(
    xml
      .toString('latin1')
      .replace(/<monit id="[^"]*"/, `<monit id="${id}"`)
      .replace(/<localhostname>[^<]*<\/localhostname>/, `<localhostname>${hostname}</localhostname>`),
    'latin1'
  )
}
