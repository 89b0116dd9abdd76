// Whether this process may run the jobs that must run once per database (the heartbeat watchdog, the
// history rollup and retention, the alert delivery). One process owns a SQLite file, so it always may;
// several instances share a PostgreSQL database, and one of them holds the lease (postgres/job-lease.ts).
export interface JobLease {
  /** Checked before each pass: whether the lease is held, as last found (never a wait on the database). */
  held(): boolean
  /** Takes or confirms it now; resolves with whether it is held. */
  refresh(): Promise<boolean>
  close(): void
}

export const soleProcessLease: JobLease = {
  held: () => true,
  refresh: () => Promise.resolve(true),
  close: () => {}
}
