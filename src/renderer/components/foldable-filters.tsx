// Filters that take a phone's whole first screen fold behind one button there (open when some filter
// is on, so the user sees why the list is short); on wider screens they are simply shown.
import { Button, Collapse, Stack } from '@mantine/core'
import { useDisclosure, useMediaQuery } from '@mantine/hooks'
import { useId, type ReactNode } from 'react'

export function FoldableFilters({ anyOn, children }: { anyOn: boolean; children: ReactNode }) {
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false })
  const [opened, { toggle }] = useDisclosure(false)
  const id = useId()
  if (!phone) return children
  return (
    <Stack gap="xs">
      <Button variant="default" onClick={toggle} aria-expanded={opened} aria-controls={id} w="fit-content">
        {`Filters${anyOn ? ' (some on)' : ''} ${opened ? '▴' : '▾'}`}
      </Button>
      <Collapse expanded={opened} id={id}>
        {children}
      </Collapse>
    </Stack>
  )
}
