// A destructive action behind a confirmation dialog (components/confirm-dialog.tsx).
import { Button, type ButtonProps } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { useMutation } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useResetAfterOutage } from '../live/use-reset-after-outage'
import { ConfirmDialog } from './confirm-dialog'

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
  const action = useMutation({
    mutationFn: onConfirm,
    onSuccess: () => {
      close()
      onDone?.()
    }
  })
  useResetAfterOutage(action)
  return (
    <>
      <Button
        color="red"
        variant="light"
        {...button}
        aria-label={ariaLabel}
        onClick={() => {
          action.reset()
          open()
        }}>
        {label}
      </Button>
      <ConfirmDialog
        opened={opened}
        onClose={close}
        title={title}
        message={message}
        label={label}
        color={button.color}
        pending={action.isPending}
        error={action.error}
        onConfirm={() => action.mutate()}
      />
    </>
  )
}
