// Where an agent says it can be called back (`<httpd>`) and where its messages come from, kept apart
// from where the server calls it (ipaddr_in/port_in/ssl_in): once an administrator pins a host's
// credentials, a message can no longer move the call-back (the collector password is in every monitrc),
// it is held in reported_* for an administrator to accept. source_ipaddr is the address the host's
// messages are known to come from; last_source_ipaddr the latest other one, shown until accepted.
export const callBackPin = {
  version: 12,
  name: 'call-back-pin',
  sql: `
ALTER TABLE host ADD COLUMN reported_ipaddr TEXT NOT NULL DEFAULT '';
ALTER TABLE host ADD COLUMN reported_port INTEGER NOT NULL DEFAULT -1;
ALTER TABLE host ADD COLUMN reported_ssl INTEGER NOT NULL DEFAULT 0;
ALTER TABLE host ADD COLUMN source_ipaddr TEXT NOT NULL DEFAULT '';
ALTER TABLE host ADD COLUMN last_source_ipaddr TEXT NOT NULL DEFAULT '';
UPDATE host SET reported_ipaddr = ipaddr_in, reported_port = port_in, reported_ssl = ssl_in;
`
}
