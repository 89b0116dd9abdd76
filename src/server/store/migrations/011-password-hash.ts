// Passwords as one scheme-tagged hash (auth/password-hash.ts): the salted SHA-256 digests move into it as
// `sha256$salt$digest` until each user's next login replaces them with scrypt; the unsalted MD5 that api/1
// used to return is dropped (nothing verifies with it). api/1 and api/2 now return a random token per
// password version instead of a digest. Until that login the stored form is weak: flagged unsafe.
export const passwordHash = {
  version: 11,
  name: 'password-hash',
  sql: `
ALTER TABLE user ADD COLUMN password_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE user ADD COLUMN password_token TEXT NOT NULL DEFAULT '';
ALTER TABLE user ADD COLUMN password_unsafe INTEGER NOT NULL DEFAULT 0;
UPDATE user SET password_hash = 'sha256$' || password_salt || '$' || password_sha256,
  password_token = lower(hex(randomblob(16))), password_unsafe = 1;
ALTER TABLE user DROP COLUMN password_salt;
ALTER TABLE user DROP COLUMN password_sha256;
ALTER TABLE user DROP COLUMN password_md5;
`
}
