// Personal API tokens (issue 26): scripts and dashboards send `Authorization: Bearer …` instead of a
// person's password. Only a SHA-256 of each token is kept (token_hash) with its first characters
// (prefix) to tell tokens apart in lists; scope 'read' or 'full'; times in Unix seconds, expires_at
// null for never. A revoked token's row is deleted; a deleted user's tokens go with it.
export const apiTokens = {
  version: 13,
  name: 'api-tokens',
  sql: `
CREATE TABLE api_token (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES user (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  scope TEXT NOT NULL CHECK (scope IN ('read', 'full')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  last_used_at INTEGER
);
CREATE INDEX api_token_user ON api_token (user_id);
`
}
