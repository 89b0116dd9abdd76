// Create or edit a channel: its name, on/off, the type's own settings (channel-fields.tsx) and the
// optional message templates. The server's refusal shows under the setting it names.
import { Button, Group, Modal, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { adminUsersQuery } from '../../api/admin'
import { createChannel, updateChannel, type AlertChannelRecord } from '../../api/alerts'
import { ErrorNote } from '../../components/error-note'
import { formErrors } from '../admin/field-errors'
import { ChannelFieldInput } from './channel-fields'
import { fieldValues, settingsArguments, type FieldValues } from './channel-values'
import { channelTypeForm } from './channel-types'

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

export function ChannelForm({ types, channel, initialType, onClose, onSaved }: Props) {
  const [type, setType] = useState(channel?.type ?? initialType ?? types[0] ?? 'webhook')
  const form = channelTypeForm(type)
  const [name, setName] = useState(channel?.name ?? '')
  const [enabled, setEnabled] = useState(channel?.enabled ?? true)
  const [values, setValues] = useState<FieldValues>(() => fieldValues(form, channel))
  const [subject, setSubject] = useState(channel?.subject ?? '')
  const [body, setBody] = useState(channel?.body ?? '')
  const users = useQuery({ ...adminUsersQuery, enabled: form.fields.some((f) => f.kind === 'users') })
  const save = useMutation({
    mutationFn: () => {
      // One-item lists: an emptied template must reach the server, where empty means the default one.
      const change = { name, enabled, settings: { ...settingsArguments(form, values), subject: [subject], body: [body] } }
      return channel ? updateChannel(channel.id, change) : createChannel({ ...change, type })
    },
    onSuccess: onSaved
  })
  const errors = formErrors(save.error, ['name', 'type', 'enabled', 'subject', 'body', ...form.fields.map((f) => f.name)])
  const edited = () => { if (save.error) save.reset() }
  const pickType = (next: string) => { setType(next); setValues(fieldValues(channelTypeForm(next))); edited() }
  const submit = (e: FormEvent) => { e.preventDefault(); save.mutate() }

  return (
    <Modal opened onClose={onClose} title={channel ? `Edit ${channel.name}` : 'New channel'} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Select label="Type" data={types.map((t) => ({ value: t, label: channelTypeForm(t).label }))} value={type}
            onChange={(v) => v !== null && pickType(v)} allowDeselect={false} disabled={channel !== undefined}
            description={form.description || undefined} error={errors.of('type')} />
          <TextInput label="Name" required value={name} onChange={(e) => { setName(e.currentTarget.value); edited() }} error={errors.of('name')} data-autofocus />
          <Switch label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
          {form.fields.map((field) => (
            <ChannelFieldInput key={`${type}-${field.name}`} field={field} value={values[field.name]} error={errors.of(field.name)}
              isSet={channel?.secrets[field.name] === true}
              users={(users.data ?? []).map((u) => ({ value: u.id, label: u.email ? `${u.uname} <${u.email}>` : `${u.uname} (no e-mail)` }))}
              onChange={(v) => { setValues((all) => ({ ...all, [field.name]: v })); edited() }} />
          ))}
          <Text size="sm" fw={500} mt="xs">Message</Text>
          <Text size="xs" c="dimmed" mt={-12}>
            Empty: the default. Handlebars placeholders: {'{{summary}} {{host}} {{service}} {{state}} {{event}} {{message}} {{date}} {{link}}'}, and {'{{#each alerts}}…{{/each}}'}.
          </Text>
          <TextInput label="Subject" value={subject} onChange={(e) => { setSubject(e.currentTarget.value); edited() }} error={errors.of('subject')} placeholder="[Overseer] {{summary}}" />
          <Textarea label="Body" autosize minRows={2} value={body} onChange={(e) => { setBody(e.currentTarget.value); edited() }} error={errors.of('body')} />
          <ErrorNote error={errors.general} title="Not saved" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={save.isPending}>{channel ? 'Save' : 'Create channel'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  )
}
