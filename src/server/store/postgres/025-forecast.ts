// Each resource series' forecast (PostgreSQL, as migrations/025-forecast.ts).
export const forecast = {
  version: 25,
  name: 'forecast',
  sql: `
CREATE TABLE forecast (
  statistic_id BIGINT PRIMARY KEY REFERENCES statistic (id) ON DELETE CASCADE,
  host_id BIGINT NOT NULL REFERENCES host (id) ON DELETE CASCADE,
  service_id BIGINT NOT NULL REFERENCES service (id) ON DELETE CASCADE,
  resource TEXT NOT NULL,
  percent DOUBLE PRECISION NOT NULL,
  slope DOUBLE PRECISION NOT NULL,
  confidence DOUBLE PRECISION NOT NULL,
  window_sec BIGINT NOT NULL,
  full_at BIGINT,
  computed_at BIGINT NOT NULL
);
CREATE INDEX forecast_full_at ON forecast (full_at) WHERE full_at IS NOT NULL;
CREATE INDEX forecast_host ON forecast (host_id);
`
}
