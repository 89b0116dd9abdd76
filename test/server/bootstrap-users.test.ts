// --init-admin and --init-collector: passwords from the command line are not held to the minimum length
// (deployment scripts and agents' `set mmonit` lines carry them already), but a weak one is flagged unsafe
// and warned about.
import '../support/fast-passwords'
import { afterEach, expect, it } from 'vitest'
import { createInitialUsers } from '../../src/server/bootstrap-users'
import { capturedLog } from '../support/captured-log'
import { tempStore, type TempStore } from '../support/temp-store'

let temp: TempStore | undefined
afterEach(() => temp?.close())

it('creates accounts with short passwords, flagged unsafe, with a warning for each', () => {
  temp = tempStore()
  const { log, out, err } = capturedLog()
  createInitialUsers(
    temp.store.users,
    { initAdmin: { user: 'admin', password: 'first' }, initCollector: { user: 'agents', password: 's3cret' } },
    log
  )
  for (const uname of ['admin', 'agents']) expect(temp.store.users.credentialsOf(uname)).toMatchObject({ password_unsafe: 1 })
  const lines = [...out(), ...err()].join('\n')
  expect(lines).toMatch(/--init-admin: the password of admin is weak/)
  expect(lines).toMatch(/--init-collector: the password of agents is weak/)
})

it('a strong password is not flagged, and nothing is said about it', () => {
  temp = tempStore()
  const { log, out, err } = capturedLog()
  createInitialUsers(temp.store.users, { initAdmin: { user: 'admin', password: 'a-strong-secret' } }, log)
  expect(temp.store.users.credentialsOf('admin')).toMatchObject({ password_unsafe: 0 })
  expect([...out(), ...err()].join('\n')).not.toMatch(/weak/)
})
