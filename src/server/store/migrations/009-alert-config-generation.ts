// Alert matching (issue 13) keeps a compiled rule set in memory on each connection that records events
// (the ingest thread's, the watchdog's). It must learn when the configuration changed, whichever
// connection wrote it: triggers bump one counter on every write to what matching reads, so no writer
// (admin API, tests with plain SQL, a cascade from a deleted host or group) can forget to, and a reader
// compares one small row per event instead of reading the rule set.
export const ALERT_CONFIG_GENERATION_KEY = 'alert_config_generation'
const key = ALERT_CONFIG_GENERATION_KEY
/** The tables alert matching reads (PostgreSQL's migrations watch the same). */
export const WATCHED_BY_ALERT_MATCHING = [
  'alert_channel',
  'alert_rule',
  'alert_rule_channel',
  'alert_rule_host',
  'alert_rule_group',
  'alert_rule_service_type',
  'alert_mute',
  'host_group_member'
]

/** The statement a trigger runs to add one to a counter kept in `setting` (migration 021's too). */
export const bumpSettingCounter = (counter: string) => `UPDATE setting SET value = CAST(value AS INTEGER) + 1 WHERE key = '${counter}';`
const bump = bumpSettingCounter(key)

export const alertConfigGeneration = {
  version: 9,
  name: 'alert-config-generation',
  sql: `
INSERT INTO setting (key, value) VALUES ('${key}', '0') ON CONFLICT (key) DO NOTHING;
${WATCHED_BY_ALERT_MATCHING.flatMap((table) =>
  ['INSERT', 'UPDATE', 'DELETE'].map(
    (op) => `CREATE TRIGGER ${table}_${op.toLowerCase()}_bumps_alert_generation AFTER ${op} ON ${table} BEGIN ${bump} END;`
  )
).join('\n')}
`
}
