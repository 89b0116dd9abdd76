// A session that deletes its own user lives on until it logs out or expires (compat CLI-7): a provisioning
// script deletes the administrator it logged in as, then goes on with the same session. It no longer
// names a user (user_id NULL, so the user's row can go); these say whose it was.
export const sessionOfDeletedUser = {
  version: 18,
  name: 'session-of-deleted-user',
  sql: `
ALTER TABLE session ADD COLUMN deleted_user_id INTEGER;
ALTER TABLE session ADD COLUMN deleted_uname TEXT;
`
}
