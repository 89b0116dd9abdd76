// A user's time zone (issue 28): the notifications e-mailed to them give times in it. '' is the server's
// own zone; anything else an IANA name, checked by the API (shared/time-zone.ts).
export const userTimeZone = {
  version: 20,
  name: 'user-time-zone',
  sql: `
ALTER TABLE "user" ADD COLUMN timezone TEXT NOT NULL DEFAULT '';
`
}
