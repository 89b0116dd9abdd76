// Alert rules: which events go to which channels. The list says each rule's scope in words; edit and
// delete per rule.
import { Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { eventClasses, serviceTypeLabels } from '../../../shared/codes'
import { adminGroupsQuery, type GroupList } from '../../api/admin'
import { alertChannelsQuery, alertRulesQuery, deleteRule, type AlertRuleRecord } from '../../api/alerts'
import { ErrorNote } from '../../components/error-note'
import { ConfirmButton } from '../../components/confirm-button'
import { RuleForm, STATE_LABELS, STATE_ORDER } from './rule-form'
import { StackedTable } from '../../components/stacked-table'

type Editing = { mode: 'create' } | { mode: 'edit'; rule: AlertRuleRecord }

export function RulesPanel() {
  const rules = useQuery(alertRulesQuery)
  const channels = useQuery(alertChannelsQuery)
  const hosts = useQuery(adminGroupsQuery)
  const queryClient = useQueryClient()
  const [editing, setEditing] = useState<Editing>()
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['admin', 'alerts'] })
  const channelName = new Map((channels.data?.records ?? []).map((c) => [c.id, c.name]))
  const ready = channels.data && hosts.data
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Which events are sent to which channels. An event may match several rules; each channel tells of it once.
        </Text>
        <Button onClick={() => setEditing({ mode: 'create' })} disabled={!ready}>
          New rule
        </Button>
      </Group>
      <ErrorNote error={rules.error ?? channels.error ?? hosts.error} title="The rules could not be loaded" />
      {channels.data && channels.data.records.length === 0 && (
        <Text size="sm">Add a channel first: a rule sends to one or more channels.</Text>
      )}
      {rules.data && rules.data.records.length === 0 && <Text data-testid="rules-empty">No rules yet: no alert is sent.</Text>}
      {rules.data && rules.data.records.length > 0 && (
        <Paper withBorder>
          <StackedTable minWidth={820} highlightOnHover aria-label="Rules">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Events</Table.Th>
                <Table.Th>Channels</Table.Th>
                <Table.Th>Timing</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rules.data.records.map((rule) => (
                <Table.Tr key={rule.id} data-rule={rule.name}>
                  <Table.Td>
                    <Text fw={500} size="sm">
                      {rule.name}
                    </Text>
                    {!rule.enabled && (
                      <Badge variant="light" color="gray">
                        Disabled
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td data-label="Events">
                    <Text size="sm">{scopeOf(rule, hosts.data)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {rule.channelid.map((id) => (
                        <Badge key={id} variant="light" tt="none">
                          {channelName.get(id) ?? `#${id}`}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td data-label="Timing">
                    <Text size="xs">
                      wait {rule.groupwait} s{rule.reminder > 0 ? ` · remind every ${rule.reminder} min` : ''}
                      {rule.recovery ? ' · recovery' : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td data-actions>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => setEditing({ mode: 'edit', rule })}
                        aria-label={`Edit ${rule.name}`}
                        disabled={!ready}>
                        Edit
                      </Button>
                      <ConfirmButton
                        size="xs"
                        label="Delete"
                        aria-label={`Delete ${rule.name}`}
                        title={`Delete the rule ${rule.name}?`}
                        message="Events it matched no longer send alerts through it."
                        onConfirm={() => deleteRule(rule.id)}
                        onDone={refresh}
                      />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </StackedTable>
        </Paper>
      )}
      {editing && channels.data && hosts.data && (
        <RuleForm
          rule={editing.mode === 'edit' ? editing.rule : undefined}
          channels={channels.data.records}
          hostsAndGroups={hosts.data}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined)
            refresh()
          }}
        />
      )}
    </Stack>
  )
}

/** "web-1, group db · services nginx* · Process · Failed, Succeeded · + heartbeat" */
function scopeOf(rule: AlertRuleRecord, hosts: GroupList | undefined): string {
  const hostName = new Map((hosts?.hosts ?? []).map((h) => [h.id, h.name]))
  const groupName = new Map((hosts?.groups ?? []).map((g) => [g.id, g.name]))
  const where = [
    ...rule.hostid.map((id) => hostName.get(id) ?? `host #${id}`),
    ...rule.hostgroupid.map((id) => `group ${groupName.get(id) ?? `#${id}`}`)
  ]
  const parts = [
    where.length ? where.join(', ') : 'every host',
    rule.servicepattern ? `services ${rule.servicepattern}` : 'every service',
    rule.servicetype.length ? rule.servicetype.map((t) => serviceTypeLabels[t]).join(', ') : '',
    rule.eventtype
      ? eventClasses
          .filter((c) => (rule.eventtype & c.id) !== 0)
          .map((c) => c.name)
          .join(', ')
      : '',
    rule.state.length < 3
      ? STATE_ORDER.filter((s) => rule.state.includes(s))
          .map((s) => STATE_LABELS[s])
          .join(', ')
      : 'every state',
    rule.heartbeat ? 'heartbeat' : ''
  ]
  return parts.filter(Boolean).join(' · ')
}
