// "Mute…" for a host or one of its services (maintenance): for 1 hour, 8 hours or until a chosen time,
// with a reason. Muted, it produces no alert until the mute ends (listed under Administration › Alerts).
import { Button, Group, Modal, Radio, Stack, Text, TextInput, Tooltip, type ButtonProps } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { createMute } from '../../api/alerts'
import { ErrorNote } from '../../components/error-note'
import { formErrors } from '../admin/field-errors'
import { DateTimeInput } from '../reports/date-time-input'

const HOUR = 3600
type Length = '1h' | '8h' | 'until'

interface Props extends ButtonProps {
  hostId: number
  hostName: string
  service?: { id: number; name: string }
  /** The button's text; "Mute…" unless told */
  label?: string
  /** Shown on hover and focus */
  tooltip?: string
}

export function MuteButton({ hostId, hostName, service, label = 'Mute…', tooltip, ...button }: Props) {
  const [opened, { open, close }] = useDisclosure()
  const what = service ? `${service.name} on ${hostName}` : hostName
  return (
    <>
      <Tooltip label={tooltip} disabled={!tooltip} events={{ hover: true, focus: true, touch: false }}>
        <Button variant="default" {...button} onClick={open} aria-label={`Mute ${what}`}>{label}</Button>
      </Tooltip>
      {opened && <MuteDialog hostId={hostId} service={service} what={what} onClose={close} />}
    </>
  )
}

function MuteDialog({ hostId, service, what, onClose }: { hostId: number; service?: { id: number }; what: string; onClose(): void }) {
  const queryClient = useQueryClient()
  const [length, setLength] = useState<Length>('1h')
  const [until, setUntil] = useState<number | undefined>(() => Math.floor(Date.now() / 1000) + 24 * HOUR)
  const [reason, setReason] = useState('')
  const mute = useMutation({
    mutationFn: () => {
      const now = Math.floor(Date.now() / 1000)
      const end = length === '1h' ? now + HOUR : length === '8h' ? now + 8 * HOUR : (until ?? 0)
      return createMute({ hostid: hostId, serviceid: service?.id, until: end, reason: reason.trim() })
    },
    onSuccess: () => { void queryClient.invalidateQueries({ queryKey: ['admin', 'alerts', 'mutes'] }); onClose() }
  })
  const errors = formErrors(mute.error, ['until', 'reason'])
  const submit = (e: FormEvent) => { e.preventDefault(); mute.mutate() }
  return (
    <Modal opened onClose={onClose} title={`Mute ${what}`}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">No alert is sent for {service ? 'this service' : 'this host or its services'} until the mute ends. Events are still stored.</Text>
          <Radio.Group label="For" value={length} onChange={(v) => { setLength(v as Length); mute.reset() }} error={errors.of('until')}>
            <Group mt={8}>
              <Radio value="1h" label="1 hour" />
              <Radio value="8h" label="8 hours" />
              <Radio value="until" label="Until a date" />
            </Group>
          </Radio.Group>
          {length === 'until' && <DateTimeInput label="Until" value={until} onChange={(v) => { setUntil(v); mute.reset() }} />}
          <TextInput label="Reason" placeholder="e.g. kernel upgrade" value={reason} onChange={(e) => setReason(e.currentTarget.value)} error={errors.of('reason')} data-autofocus />
          <ErrorNote error={errors.general} title="Not muted" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={mute.isPending}>Mute</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
