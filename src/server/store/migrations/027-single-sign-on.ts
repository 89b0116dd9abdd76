// Single sign-on with OpenID Connect (issue 30 §2): the identity provider's user (issuer and subject) each
// local user is linked to, made at the first login or linked by e-mail; and which roles each group of the
// provider's group claim gives (the console's mapping table).
export const singleSignOn = {
  version: 27,
  name: 'single-sign-on',
  sql: `
CREATE TABLE user_oidc (
  user_id INTEGER PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE,
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  UNIQUE (issuer, subject)
);
CREATE TABLE oidc_group_role (
  group_name TEXT NOT NULL,
  role_id INTEGER NOT NULL REFERENCES role(id) ON DELETE CASCADE,
  PRIMARY KEY (group_name, role_id)
);
`
}
