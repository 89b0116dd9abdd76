// Whether this process may run the jobs that must run once per database (the heartbeat watchdog, the
// history rollup and retention, the alert delivery). One process owns a SQLite file, so it always may;
// several instances share a PostgreSQL database, and one of them holds the lease (postgres/job-lease.ts).
export interface JobLease {
  /** Checked before each pass; tries to take the lease when it is not held. */
  held(): boolean
  close(): void
}

export const soleProcessLease: JobLease = {
  held: () => true,
  close: () => {}
}
