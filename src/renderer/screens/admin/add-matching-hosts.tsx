// "Add all matching hosts" to a host group: every host whose name contains the text, in one request,
// with the count shown before the click (hosts already in the group are left out of it).
import { Button, Group, Text, TextInput } from '@mantine/core'
import { useMutation } from '@tanstack/react-query'
import { useDeferredValue, useMemo, useState } from 'react'
import { addGroupHosts, type GroupList, type HostGroup } from '../../api/admin'
import { ErrorNote } from '../../components/error-note'

interface AddMatchingHostsProps {
  group: HostGroup
  hosts: GroupList['hosts']
  onAdded(): void
}

export function AddMatchingHosts({ group, hosts, onAdded }: AddMatchingHostsProps) {
  const [text, setText] = useState('')
  const pattern = useDeferredValue(text.trim().toLowerCase())
  const matching = useMemo(() => {
    if (!pattern) return []
    const members = new Set(group.hosts)
    return hosts.filter((h) => !members.has(h.id) && h.name.toLowerCase().includes(pattern)).map((h) => h.id)
  }, [pattern, hosts, group.hosts])
  const add = useMutation({
    mutationFn: () => addGroupHosts(group.id, matching),
    onSuccess: () => {
      setText('')
      onAdded()
    }
  })
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <TextInput
        label="Add all hosts whose name contains"
        placeholder="e.g. web- or .example.com"
        w={320}
        maw="100%"
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value)
          add.reset()
        }}
        aria-label={`Hosts to add to ${group.name}`}
      />
      <Button variant="light" disabled={matching.length === 0} loading={add.isPending} onClick={() => add.mutate()}>
        {`Add ${matching.length} matching host${matching.length === 1 ? '' : 's'}`}
      </Button>
      {pattern && matching.length === 0 && (
        <Text size="sm" c="dimmed">
          No host outside the group matches.
        </Text>
      )}
      <ErrorNote error={add.error} title="Not added" />
    </Group>
  )
}
