// --init-admin and --init-collector: the first accounts of a fresh install (no default passwords).
import { digestPassword } from './auth/passwords'
import type { UserSpec } from './config'
import type { Logger } from './log'
import { BUILTIN_ROLE } from '../shared/api/roles'
import type { UserRepository } from './store/users'

export function createInitialUsers(users: UserRepository, spec: { initAdmin?: UserSpec; initCollector?: UserSpec }, log: Logger): void {
  if (spec.initAdmin) {
    if (users.count() > 0) {
      log.info('--init-admin ignored: users exist already')
    } else {
      users.create({
        uname: spec.initAdmin.user,
        password: digestPassword(spec.initAdmin.password),
        fullname: 'Administrator',
        roleIds: [BUILTIN_ROLE.Administrator]
      })
      log.info(`created administrator ${spec.initAdmin.user}`)
    }
  }
  if (spec.initCollector) {
    const { user, password } = spec.initCollector
    if (users.credentialsOf(user)) {
      log.info(`--init-collector ignored: user ${user} exists already`)
    } else {
      users.create({ uname: user, password: digestPassword(password), fullname: 'Monit collector', roleIds: [BUILTIN_ROLE.Collector] })
      log.info(`created collector user ${user}`)
    }
    // Monit 5.33 does not percent-decode the credentials of its `set mmonit` URL.
    if (!/^[A-Za-z0-9]+$/.test(user + password)) {
      log.warn('collector credentials should be letters and digits only: Monit cannot send other characters in its set mmonit URL')
    }
  }
}
