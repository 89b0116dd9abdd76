// Reserved for issue 26 (api-tokens): its tables and columns (SQLite). Replaced by the change that fills it.
export const apiTokens = {
  version: 13,
  name: 'api-tokens',
  sql: `
SELECT 1;
`
}
