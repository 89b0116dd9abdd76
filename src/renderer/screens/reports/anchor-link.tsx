// A Mantine Anchor that is a typed router link (checked paths, params and search).
import { Anchor, type AnchorProps } from '@mantine/core'
import { createLink, type LinkComponent } from '@tanstack/react-router'
import { forwardRef, type AnchorHTMLAttributes } from 'react'

type AnchorElementProps = Omit<AnchorProps, 'href'> & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'color' | 'style'>

const MantineAnchor = forwardRef<HTMLAnchorElement, AnchorElementProps>((props, ref) => <Anchor ref={ref} {...props} />)

const RouterAnchor = createLink(MantineAnchor)

export const AnchorLink: LinkComponent<typeof MantineAnchor> = (props) => <RouterAnchor {...props} />
