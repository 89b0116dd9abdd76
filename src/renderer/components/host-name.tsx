// A host name that wraps like a domain name, after its dots (and hyphens, as text always may), rather
// than in the middle of a label; a label too long for its cell still breaks as a last resort.
import { Fragment } from 'react'

export function HostName({ name }: { name: string }) {
  const labels = name.split(/(?<=\.)/)
  return (
    <span style={{ overflowWrap: 'anywhere' }}>
      {labels.map((label, i) => (
        <Fragment key={i}>
          {label}
          {i < labels.length - 1 && <wbr />}
        </Fragment>
      ))}
    </span>
  )
}
