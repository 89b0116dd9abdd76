// A user's time zone (the times of the alerts e-mailed to them): every IANA zone the browser knows, and
// "the server's" (stored as ''), searchable. Used by Settings › Your profile and the user editor.
import { Select } from '@mantine/core'

/** The Select's value for "the server's zone" (stored as ''): a Select has no empty value. */
const SERVER_ZONE = 'server'

interface Props {
  /** IANA name; '' the server's */
  value: string
  onChange(zone: string): void
  /** The server's own zone, named in its option when known */
  serverZone?: string
  error?: string
  description?: string
}

export function TimeZoneSelect({ value, onChange, serverZone, error, description }: Props) {
  const zones = [
    { value: SERVER_ZONE, label: serverZone ? `The server's (${serverZone})` : "The server's" },
    // The stored one too: the browser may spell a zone differently from the server (Europe/Kiev, Europe/Kyiv).
    ...[...new Set([...Intl.supportedValuesOf('timeZone'), ...(value ? [value] : [])])].map((z) => ({
      value: z,
      label: z.replaceAll('_', ' ')
    }))
  ]
  return (
    <Select
      label="Time zone"
      description={description}
      searchable
      maw={360}
      data={zones}
      value={value || SERVER_ZONE}
      onChange={(v) => onChange(!v || v === SERVER_ZONE ? '' : v)}
      error={error}
      nothingFoundMessage="No such time zone"
    />
  )
}
