// The import's source as the form asks for it (a kind, where, and a password in a field of its own so
// that it is never shown in clear) turned into the one URL the server takes.
export const SOURCE_KINDS = [
  { value: 'sqlite', label: 'SQLite file' },
  { value: 'mysql', label: 'MySQL' },
  { value: 'postgresql', label: 'PostgreSQL' },
  { value: 'api', label: 'M/Monit API' }
] as const
export type SourceKind = (typeof SOURCE_KINDS)[number]['value']

export interface SourceFields {
  kind: SourceKind
  /** The file's path on the server's machine, or the server's address. */
  location: string
  user: string
  password: string
}

export const LOCATION_HINT: Record<SourceKind, { label: string; placeholder: string }> = {
  sqlite: { label: "Path of M/Monit's database on this server's machine", placeholder: '/opt/mmonit/db/mmonit.db' },
  mysql: { label: 'Database server and database', placeholder: 'db.example.net:3306/mmonit' },
  postgresql: { label: 'Database server and database', placeholder: 'db.example.net:5432/mmonit' },
  api: { label: "M/Monit's address", placeholder: 'https://mmonit.example.net:8080' }
}

/** The URL the server takes, or why the fields do not make one. */
export function sourceUrl(f: SourceFields): { url: string } | { problem: string } {
  const location = f.location.trim()
  if (location === '') return { problem: f.kind === 'sqlite' ? 'Enter the path of the database file' : "Enter the server's address" }
  if (f.kind === 'sqlite') return { url: `sqlite:${location.replace(/^sqlite:(\/\/)?/, '')}` }
  // A database server's scheme is its kind's, whatever was typed; M/Monit's API is https unless http is written.
  const address = location.replace(/^[a-z]+:\/\//i, '')
  const scheme = f.kind !== 'api' ? f.kind : /^http:\/\//i.test(location) ? 'http' : 'https'
  let url: URL
  try {
    url = new URL(`${scheme}://${address}`)
  } catch {
    return { problem: `"${location}" is no address: ${LOCATION_HINT[f.kind].placeholder}, for example` }
  }
  if (url.hostname === '') return { problem: `"${location}" names no host: ${LOCATION_HINT[f.kind].placeholder}, for example` }
  if (f.kind !== 'api' && url.pathname.replace(/\//g, '') === '')
    return { problem: 'Name the database after the server: host:port/database' }
  if (f.user.trim() === '') return { problem: f.kind === 'api' ? 'Enter an M/Monit administrator' : 'Enter the database user' }
  url.username = encodeURIComponent(f.user.trim())
  url.password = encodeURIComponent(f.password)
  return { url: url.href }
}
