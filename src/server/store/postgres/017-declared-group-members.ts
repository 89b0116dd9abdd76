// Host groups the agent declares (PostgreSQL, as migrations/017-declared-group-members.ts): a membership
// is kept while an administrator assigned it or the agent declares it.
export const declaredGroupMembers = {
  version: 17,
  name: 'declared-group-members',
  sql: `
ALTER TABLE host_group_member ADD COLUMN assigned BIGINT NOT NULL DEFAULT 1, ADD COLUMN declared BIGINT NOT NULL DEFAULT 0;
CREATE INDEX host_group_member_declared ON host_group_member (host_id) WHERE declared = 1;
`
}
