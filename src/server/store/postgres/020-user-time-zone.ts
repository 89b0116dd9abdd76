// A user's time zone for the notifications e-mailed to them (PostgreSQL, as migrations/020-user-time-zone.ts).
export const userTimeZone = {
  version: 20,
  name: 'user-time-zone',
  sql: `
ALTER TABLE "user" ADD COLUMN timezone TEXT NOT NULL DEFAULT '';
`
}
