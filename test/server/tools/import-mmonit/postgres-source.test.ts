// The PostgreSQL source against the suite's cluster (OVERSEER_TEST_POSTGRES) or one of the test's own
// (scripts/postgres.sh): test/support/mmonit-server-source-cases.ts.
import { postgresCluster, postgresMissing } from '../../../support/mmonit-server-database'
import { serverSourceCases } from '../../../support/mmonit-server-source-cases'

serverSourceCases('postgresql', postgresMissing(), postgresCluster)
