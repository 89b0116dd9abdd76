// "Mute…" for a host or one of its services (maintenance): for 1 hour, 8 hours or until a chosen time,
// with a reason. Muted, it produces no alert until the mute ends (listed under Administration › Alerts).
import { Button, Group, Modal, Radio, Stack, Text, TextInput, Tooltip, type ButtonProps } from '@mantine/core'
import { useForm, type FormErrors } from '@mantine/form'
import { useDisclosure } from '@mantine/hooks'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createMute } from '../../api/alerts'
import { ErrorNote } from '../../components/error-note'
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
        <Button variant="default" {...button} onClick={open} aria-label={`Mute ${what}`}>
          {label}
        </Button>
      </Tooltip>
      {opened && <MuteDialog hostId={hostId} service={service} what={what} onClose={close} />}
    </>
  )
}

interface MuteValues {
  length: Length
  /** Unix seconds, for "Until a date" */
  until: number | undefined
  reason: string
}

/** The mute's end: an hour or eight from now, or the chosen date. */
const endOf = (v: MuteValues, now: number) => (v.length === '1h' ? now + HOUR : v.length === '8h' ? now + 8 * HOUR : (v.until ?? 0))

/** The server's checks (admin/alerts/mutes/create), in the browser: every field at once. */
function muteErrors(v: MuteValues): FormErrors {
  return {
    until: v.length === 'until' && (v.until ?? 0) <= Date.now() / 1000 ? 'must be in the future' : undefined,
    reason: v.reason.length > 1000 ? 'longer than 1000 characters' : undefined
  }
}

function MuteDialog({ hostId, service, what, onClose }: { hostId: number; service?: { id: number }; what: string; onClose(): void }) {
  const queryClient = useQueryClient()
  const form = useForm<MuteValues>({
    mode: 'controlled',
    initialValues: { length: '1h', until: Math.floor(Date.now() / 1000) + 24 * HOUR, reason: '' },
    validate: muteErrors
  })
  const values = form.getValues()
  const mute = useMutation({
    mutationFn: (v: MuteValues) =>
      createMute({ hostid: hostId, serviceid: service?.id, until: endOf(v, Math.floor(Date.now() / 1000)), reason: v.reason.trim() }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'alerts', 'mutes'] })
      onClose()
    }
  })
  return (
    <Modal opened onClose={onClose} title={`Mute ${what}`}>
      <form onSubmit={form.onSubmit((v) => mute.mutate(v))} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            No alert is sent for {service ? 'this service' : 'this host or its services'} until the mute ends. Events are still stored.
          </Text>
          <Radio.Group label="For" {...form.getInputProps('length')}>
            <Group mt={8}>
              <Radio value="1h" label="1 hour" />
              <Radio value="8h" label="8 hours" />
              <Radio value="until" label="Until a date" />
            </Group>
          </Radio.Group>
          {values.length === 'until' && (
            <DateTimeInput label="Until" value={values.until} onChange={(v) => form.setFieldValue('until', v)} error={form.errors.until} />
          )}
          <TextInput label="Reason" placeholder="e.g. kernel upgrade" {...form.getInputProps('reason')} data-autofocus />
          <ErrorNote error={mute.error} title="Not muted" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={mute.isPending}>
              Mute
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
