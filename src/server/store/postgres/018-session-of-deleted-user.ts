// A session that deletes its own user lives on (PostgreSQL, as migrations/018-session-of-deleted-user.ts).
export const sessionOfDeletedUser = {
  version: 18,
  name: 'session-of-deleted-user',
  sql: `
ALTER TABLE session ADD COLUMN deleted_user_id BIGINT, ADD COLUMN deleted_uname TEXT;
`
}
