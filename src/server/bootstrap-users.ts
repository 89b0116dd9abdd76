// --init-admin and --init-collector: the first accounts of a fresh install (no default passwords). Their
// passwords are not held to the minimum length: deployment scripts and agents' `set mmonit` lines carry
// them already, and a server refusing to start would break those installs. A weak one is warned about and
// flagged unsafe (admin/users/list) instead.
import { newPasswordSync } from './auth/passwords'
import type { UserSpec } from './config'
import type { Logger } from './log'
import { BUILTIN_ROLE } from '../shared/api/roles'
import { PASSWORD_MIN_LENGTH } from '../shared/api/users'
import type { UserRepository } from './store/users'

const WEAK = `shorter than ${PASSWORD_MIN_LENGTH} characters, the user name or a well-known default`

export function createInitialUsers(users: UserRepository, spec: { initAdmin?: UserSpec; initCollector?: UserSpec }, log: Logger): void {
  if (spec.initAdmin) {
    if (users.count() > 0) {
      log.info('--init-admin ignored: users exist already')
    } else {
      const { user, password } = spec.initAdmin
      const stored = newPasswordSync(password, user)
      users.create({ uname: user, password: stored, fullname: 'Administrator', roleIds: [BUILTIN_ROLE.Administrator] })
      log.info(`created administrator ${user}`)
      if (stored.unsafe) log.warn(`--init-admin: the password of ${user} is weak (${WEAK}): change it in the console`)
    }
  }
  if (spec.initCollector) {
    const { user, password } = spec.initCollector
    if (users.credentialsOf(user)) {
      log.info(`--init-collector ignored: user ${user} exists already`)
    } else {
      const stored = newPasswordSync(password, user)
      users.create({ uname: user, password: stored, fullname: 'Monit collector', roleIds: [BUILTIN_ROLE.Collector] })
      log.info(`created collector user ${user}`)
      if (stored.unsafe) log.warn(`--init-collector: the password of ${user} is weak (${WEAK})`)
    }
    // Monit 5.33 does not percent-decode the credentials of its `set mmonit` URL.
    if (!/^[A-Za-z0-9]+$/.test(user + password)) {
      log.warn('collector credentials should be letters and digits only: Monit cannot send other characters in its set mmonit URL')
    }
  }
}
