// The Prometheus text exposition format, version 0.0.4: one HELP and TYPE line per family, then its samples.
export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped'
export type Labels = Readonly<Record<string, string>>

export interface Sample {
  /** Appended to the family name: `_bucket`, `_sum`, `_count` for histograms. */
  suffix?: string
  labels?: Labels
  value: number
}

export interface MetricFamily {
  name: string
  help: string
  type: MetricType
  samples: readonly Sample[]
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/

export function renderExposition(families: readonly MetricFamily[]): string {
  const lines: string[] = []
  for (const family of families) {
    // Names are ours, never the agents': a bad one is a programming error, so fail loudly.
    if (!METRIC_NAME.test(family.name)) throw new Error(`invalid metric name: ${family.name}`)
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`)
    for (const sample of family.samples) lines.push(renderSample(family.name, sample))
  }
  return lines.length ? `${lines.join('\n')}\n` : ''
}

function renderSample(family: string, sample: Sample): string {
  const name = family + (sample.suffix ?? '')
  if (!METRIC_NAME.test(name)) throw new Error(`invalid metric name: ${name}`)
  const labels = Object.entries(sample.labels ?? {}).map(([key, value]) => {
    if (!LABEL_NAME.test(key) || key.startsWith('__')) throw new Error(`invalid label name: ${key}`)
    return `${key}="${escapeLabelValue(value)}"`
  })
  return `${name}${labels.length ? `{${labels.join(',')}}` : ''} ${formatValue(sample.value)}`
}

/** Label values may hold anything an agent sends (host and service names); these three need escapes. */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`))
}

function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'))
}

export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (value === Infinity) return '+Inf'
  if (value === -Infinity) return '-Inf'
  return String(value)
}
