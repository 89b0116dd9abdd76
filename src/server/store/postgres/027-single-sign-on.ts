// Single sign-on (PostgreSQL, as migrations/027-single-sign-on.ts).
export const singleSignOn = {
  version: 27,
  name: 'single-sign-on',
  sql: `
CREATE TABLE user_oidc (
  user_id BIGINT PRIMARY KEY REFERENCES "user" (id) ON DELETE CASCADE,
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  UNIQUE (issuer, subject)
);
CREATE TABLE oidc_group_role (
  group_name TEXT NOT NULL,
  role_id BIGINT NOT NULL REFERENCES role (id) ON DELETE CASCADE,
  PRIMARY KEY (group_name, role_id)
);
`
}
