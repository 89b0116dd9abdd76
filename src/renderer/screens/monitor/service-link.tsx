// A link to a service's own page (/#/hosts/<host id>/services/<name>), from the host page, the
// services list and an event.
import { Anchor, type AnchorProps } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'

interface Props extends AnchorProps {
  hostId: number
  serviceName: string
  /** The link's text; the service's name when left out. */
  children?: ReactNode
}

export function ServiceLink({ hostId, serviceName, children, ...anchor }: Props) {
  return (
    <Anchor
      {...anchor}
      renderRoot={(props) => (
        <Link {...props} to="/hosts/$hostId/services/$serviceName" params={{ hostId: String(hostId), serviceName }} />
      )}>
      {children ?? serviceName}
    </Anchor>
  )
}
