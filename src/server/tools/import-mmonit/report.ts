// The import's final report: per step what M/Monit held and what was imported, then everything left
// out with its reason, and what the administrator should act on (default passwords …).
import type { ImportReport } from './import-database'

export function formatReport(report: ImportReport): string {
  const lines: string[] = []
  const width = Math.max(...report.steps.map((s) => s.name.length))
  lines.push(
    report.dryRun
      ? `dry run: M/Monit schema ${report.schemaVersion}; nothing was written. Rows that would be read:`
      : `imported from M/Monit schema ${report.schemaVersion} in ${report.seconds.toFixed(1)} s; counts verified:`
  )
  for (const step of report.steps) {
    const counted = step.expected.toLocaleString('en')
    lines.push(`  ${step.name.padEnd(width)}  ${report.dryRun ? counted : `${step.imported.toLocaleString('en')} imported of ${counted}`}`)
  }
  const skipped = report.steps.flatMap((s) => s.skipped.map((k) => `  ${s.name}: ${k.what}: ${k.why}`))
  if (skipped.length > 0) lines.push('not imported:', ...skipped)
  const warnings = report.steps.flatMap((s) => s.warnings.map((w) => `  ${w}`))
  if (warnings.length > 0) lines.push('to act on:', ...warnings)
  if (report.limits.length > 0) lines.push('not available from this source:', ...report.limits.map((l) => `  ${l}`))
  return `${lines.join('\n')}\n`
}
