// Create or edit a channel: its name, on/off, the type's own settings (channel-fields.tsx) and the
// optional message templates. Checked in the browser first (channel-rules.ts): every invalid field
// shows its reason at once; what only the server knows shows above the buttons.
import { Button, Group, Modal, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core'
import { useForm } from '@mantine/form'
import { useMutation, useQuery } from '@tanstack/react-query'
import { adminUsersQuery } from '../../api/admin'
import { createChannel, updateChannel, type AlertChannelRecord } from '../../api/alerts'
import { ErrorNote } from '../../components/error-note'
import { ChannelFieldInput } from './channel-fields'
import { channelFormErrors, type ChannelDraft } from './channel-rules'
import { channelTypeForm } from './channel-types'
import { fieldValues, settingsArguments } from './channel-values'

interface Props {
  /** The types the server offers */
  types: readonly string[]
  /** Absent: a new channel */
  channel?: AlertChannelRecord
  /** A new channel's type to start with */
  initialType?: string
  onClose(): void
  onSaved(): void
}

function initialDraft(types: readonly string[], channel?: AlertChannelRecord, initialType?: string): ChannelDraft {
  const type = channel?.type ?? initialType ?? types[0] ?? 'webhook'
  return {
    type,
    name: channel?.name ?? '',
    enabled: channel?.enabled ?? true,
    subject: channel?.subject ?? '',
    body: channel?.body ?? '',
    settings: fieldValues(channelTypeForm(type), channel)
  }
}

export function ChannelForm({ types, channel, initialType, onClose, onSaved }: Props) {
  const form = useForm<ChannelDraft>({
    mode: 'controlled',
    initialValues: initialDraft(types, channel, initialType),
    validate: (draft) => channelFormErrors(draft, channel?.secrets)
  })
  const draft = form.getValues()
  const typeForm = channelTypeForm(draft.type)
  const users = useQuery({ ...adminUsersQuery, enabled: typeForm.fields.some((f) => f.kind === 'users') })
  const save = useMutation({
    mutationFn: (values: ChannelDraft) => {
      // One-item lists: an emptied template must reach the server, where empty means the default one.
      const settings = {
        ...settingsArguments(channelTypeForm(values.type), values.settings),
        subject: [values.subject],
        body: [values.body]
      }
      const change = { name: values.name, enabled: values.enabled, settings }
      return channel ? updateChannel(channel.id, change) : createChannel({ ...change, type: values.type })
    },
    onSuccess: onSaved
  })
  const pickType = (type: string) => {
    form.setValues({ type, settings: fieldValues(channelTypeForm(type)) })
    form.clearErrors()
  }

  return (
    <Modal opened onClose={onClose} title={channel ? `Edit ${channel.name}` : 'New channel'} size="lg">
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Select
            label="Type"
            data={types.map((t) => ({ value: t, label: channelTypeForm(t).label }))}
            value={draft.type}
            onChange={(v) => v !== null && pickType(v)}
            allowDeselect={false}
            disabled={channel !== undefined}
            description={typeForm.description || undefined}
          />
          <TextInput
            label="Name"
            required
            value={draft.name}
            onChange={(e) => form.setFieldValue('name', e.currentTarget.value)}
            error={form.errors.name}
            data-autofocus
          />
          <Switch label="Enabled" checked={draft.enabled} onChange={(e) => form.setFieldValue('enabled', e.currentTarget.checked)} />
          {typeForm.fields.map((field) => (
            <ChannelFieldInput
              key={`${draft.type}-${field.name}`}
              field={field}
              value={draft.settings[field.name]}
              error={form.errors[`settings.${field.name}`]}
              isSet={channel?.secrets[field.name] === true}
              users={(users.data ?? []).map((u) => ({
                value: u.id,
                label: u.email ? `${u.uname} <${u.email}>` : `${u.uname} (no e-mail)`
              }))}
              onChange={(v) => form.setFieldValue(`settings.${field.name}`, v)}
            />
          ))}
          <Text size="sm" fw={500} mt="xs">
            Message
          </Text>
          <Text size="xs" c="dimmed" mt={-12}>
            Empty: the default. Handlebars placeholders:{' '}
            {'{{summary}} {{host}} {{service}} {{state}} {{event}} {{message}} {{date}} {{link}}'}, and {'{{#each alerts}}…{{/each}}'}.
          </Text>
          <TextInput
            label="Subject"
            value={draft.subject}
            onChange={(e) => form.setFieldValue('subject', e.currentTarget.value)}
            placeholder="[Overseer] {{summary}}"
          />
          <Textarea
            label="Body"
            autosize
            minRows={2}
            value={draft.body}
            onChange={(e) => form.setFieldValue('body', e.currentTarget.value)}
          />
          {/* What only the server knows (a name taken already, a template it cannot compile) shows above the buttons. */}
          <ErrorNote error={save.error} title="Not saved" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {channel ? 'Save' : 'Create channel'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
