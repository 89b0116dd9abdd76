// Host groups the agent declares (Monit 5.34+ `set mmonit … with hostgroups`, agent protocol §4.1): a
// membership is kept while an administrator assigned it or the agent declares it, so that an agent that
// stops declaring a group never takes away what an administrator assigned. Every membership before this
// version was assigned by an administrator.
export const declaredGroupMembers = {
  version: 17,
  name: 'declared-group-members',
  sql: `
ALTER TABLE host_group_member ADD COLUMN assigned INTEGER NOT NULL DEFAULT 1;
ALTER TABLE host_group_member ADD COLUMN declared INTEGER NOT NULL DEFAULT 0;
CREATE INDEX host_group_member_declared ON host_group_member (host_id) WHERE declared = 1;
`
}
