// The audit log (issue 26): who changed what and when — logins, failed ones too, and each change an
// administrator or user makes through the API — written in the transaction of the change it records.
// uname is kept as text (the user may be deleted later); detail never holds a secret.
export const auditLog = {
  version: 15,
  name: 'audit-log',
  sql: `
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  -- Unix seconds
  at INTEGER NOT NULL,
  user_id INTEGER,
  uname TEXT NOT NULL,
  address TEXT NOT NULL,
  -- a short stable code: login, login-failed, user.create, host.update, service.action, ...
  action TEXT NOT NULL,
  -- what it acted on, e.g. 'user 5 alice'
  target TEXT NOT NULL,
  -- JSON of what changed, secrets left out
  detail TEXT NOT NULL
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_user ON audit_log (user_id, at);
`
}
