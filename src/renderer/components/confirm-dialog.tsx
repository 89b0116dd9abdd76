// The question before an action that cannot be taken back: what it does, Cancel, and the action; the
// server's refusal shows inside the dialog.
import { Button, Group, Modal, Stack, Text } from '@mantine/core'
import type { ReactNode } from 'react'
import { ErrorNote } from './error-note'

export interface ConfirmDialogProps {
  opened: boolean
  onClose(): void
  title: string
  message: ReactNode
  /** The confirm button's text. */
  label: string
  color?: string
  pending: boolean
  error: unknown
  onConfirm(): void
}

export function ConfirmDialog({ opened, onClose, title, message, label, color = 'red', pending, error, onConfirm }: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack>
        {typeof message === 'string' ? <Text>{message}</Text> : message}
        <ErrorNote error={error} title="Not done" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={color} loading={pending} onClick={onConfirm}>
            {label}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
