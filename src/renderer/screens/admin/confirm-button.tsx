// A destructive action behind a confirmation dialog; the server's refusal shows inside the dialog.
import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { useMutation } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { ErrorNote } from '../../components/error-note'

interface ConfirmButtonProps extends ButtonProps {
  /** The button's text, also the dialog's confirm button. */
  label: string
  title: string
  message: ReactNode
  onConfirm(): Promise<unknown>
  onDone?(): void
  'aria-label'?: string
}

export function ConfirmButton({ label, title, message, onConfirm, onDone, 'aria-label': ariaLabel, ...button }: ConfirmButtonProps) {
  const [opened, { open, close }] = useDisclosure()
  const action = useMutation({ mutationFn: onConfirm, onSuccess: () => { close(); onDone?.() } })
  return (
    <>
      <Button color="red" variant="light" {...button} aria-label={ariaLabel} onClick={() => { action.reset(); open() }}>{label}</Button>
      <Modal opened={opened} onClose={close} title={title} centered>
        <Stack>
          {typeof message === 'string' ? <Text>{message}</Text> : message}
          <ErrorNote error={action.error} title="Not done" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>Cancel</Button>
            <Button color="red" loading={action.isPending} onClick={() => action.mutate()}>{label}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  )
}
