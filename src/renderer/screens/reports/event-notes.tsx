// An event's notes, oldest first, and the form that adds one (our reports/events/note).
import { Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core'
import { useState, type FormEvent } from 'react'
import { useAddEventNote, type EventDetail } from '../../api/events'
import { ErrorNote } from '../../components/error-note'
import { formatDateTime } from './time'

const MAX_NOTE = 4000

export function EventNotes({ event }: { event: EventDetail }) {
  const [draft, setDraft] = useState('')
  const [added, setAdded] = useState(false)
  const addNote = useAddEventNote(event.id)
  const text = draft.trim()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!text) return
    setAdded(false)
    addNote.mutate(text, { onSuccess: () => { setDraft(''); setAdded(true) } })
  }
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="event-notes-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="event-notes-title">Notes</Title>
        {event.note.length === 0
          ? <Text c="dimmed" size="sm">No notes yet. Write down what was found or done, for whoever looks next.</Text>
          : (
            <Stack gap="xs" component="ol" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Notes">
              {event.note.map((note, i) => (
                <Card key={i} component="li" padding="sm" radius="sm" bg="var(--mantine-color-default-hover)">
                  <Group gap="xs" mb={4}>
                    <Text size="sm" fw={700}>{note.uname}</Text>
                    <Text size="xs" c="dimmed">{formatDateTime(note.date)}</Text>
                  </Group>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{note.message}</Text>
                </Card>
              ))}
            </Stack>
          )}
        <form onSubmit={submit}>
          <Stack gap="xs">
            <Textarea label="Add a note" autosize minRows={2} maxRows={8} maxLength={MAX_NOTE}
              value={draft} onChange={(e) => { setDraft(e.currentTarget.value); setAdded(false) }} />
            <Group gap="sm">
              <Button type="submit" disabled={!text} loading={addNote.isPending}>Add note</Button>
              {added && <Text size="sm" c="teal" role="status">Note added.</Text>}
            </Group>
            <ErrorNote error={addNote.error} title="The note could not be added" />
          </Stack>
        </form>
      </Stack>
    </Card>
  )
}
