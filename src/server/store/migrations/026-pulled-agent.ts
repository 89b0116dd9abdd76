// Pulled agents (issue 30 §1): Monit agents that cannot reach the server but whose httpd it can reach. An
// administrator adds one by its httpd address and credentials (the password sealed, secret-box.ts); the
// pull job reads its status every poll interval and stores it as the collector would. The agent's id is
// known from the first answer, and with it the host its reports go to (a host that also pushes is the same
// host: the agent id decides). The certificate of an HTTPS agent is pinned at the first answer.
export const pulledAgent = {
  version: 26,
  name: 'pulled-agent',
  sql: `
CREATE TABLE pulled_agent (
  id INTEGER PRIMARY KEY,
  address TEXT NOT NULL,
  port INTEGER NOT NULL,
  ssl INTEGER NOT NULL,
  username TEXT NOT NULL,
  password TEXT NOT NULL,
  certificate_sha256 TEXT NOT NULL DEFAULT '',
  poll_sec INTEGER NOT NULL,
  agent_id TEXT,
  created_at INTEGER NOT NULL,
  polled_at INTEGER,
  answered_at INTEGER,
  error TEXT,
  UNIQUE (address, port)
);
`
}
