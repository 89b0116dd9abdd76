// The MySQL/MariaDB source against a MariaDB of the test's own (scripts/mariadb.sh; CI installs Debian's
// mariadb-server): test/support/mmonit-server-source-cases.ts.
import { mariaDbMissing, startMariaDb } from '../../../support/mmonit-server-database'
import { serverSourceCases } from '../../../support/mmonit-server-source-cases'

serverSourceCases('mysql', mariaDbMissing(), startMariaDb)
