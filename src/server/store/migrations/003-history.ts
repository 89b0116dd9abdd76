// Statistics history (issue 5; see src/server/domain/history-levels.ts). The collector appends one raw row per
// host and poll, its samples packed in a blob; a background job rolls complete periods up into blocks
// of minute, hour and day buckets, one row per (block start, statistic), and prunes each level by its
// retention. Block tables are keyed by start first, so the job's writes append at the end of the tree
// and pages stay full. No foreign keys: rows of a removed host or service age out with their level's
// retention, and statistic ids are never reused (AUTOINCREMENT).
// AUTOINCREMENT on history_raw too: the job's late-sample watermark is a rowid and must never go back.
export const history = {
  version: 3,
  name: 'history',
  sql: `
CREATE TABLE history_raw (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  host_id INTEGER NOT NULL,
  time INTEGER NOT NULL,
  samples BLOB NOT NULL
);
CREATE UNIQUE INDEX history_raw_host_time ON history_raw (host_id, time);
CREATE TABLE history_minute (
  start INTEGER NOT NULL, statistic_id INTEGER NOT NULL, buckets BLOB NOT NULL, PRIMARY KEY (start, statistic_id)
) WITHOUT ROWID;
CREATE TABLE history_hour (
  start INTEGER NOT NULL, statistic_id INTEGER NOT NULL, buckets BLOB NOT NULL, PRIMARY KEY (start, statistic_id)
) WITHOUT ROWID;
CREATE TABLE history_day (
  start INTEGER NOT NULL, statistic_id INTEGER NOT NULL, buckets BLOB NOT NULL, PRIMARY KEY (start, statistic_id)
) WITHOUT ROWID;
`
}
