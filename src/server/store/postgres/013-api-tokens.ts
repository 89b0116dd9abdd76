// Reserved for issue 26 (api-tokens): its tables and columns (PostgreSQL, as migrations/013-api-tokens.ts). Replaced by the change that fills it.
export const apiTokens = {
  version: 13,
  name: 'api-tokens',
  sql: `
SELECT 1;
`
}
