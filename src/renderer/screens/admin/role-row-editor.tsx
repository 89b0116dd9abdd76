// The rows of a role: each grants permission bits (collector, view, service actions) on hosts and on
// the hosts of host groups; a row naming neither applies to every host, including future ones.
import { ActionIcon, Button, Checkbox, Group, MultiSelect, Paper, Stack, Text, Tooltip } from '@mantine/core'
import { PERMISSION_BITS, type GroupList, type RoleRowDraft } from '../../api/admin'

interface RoleRowEditorProps {
  rows: RoleRowDraft[]
  choices: GroupList
  onChange(rows: RoleRowDraft[]): void
}

export function RoleRowEditor({ rows, choices, onChange }: RoleRowEditorProps) {
  const hosts = choices.hosts.map((h) => ({ value: String(h.id), label: h.name }))
  const groups = choices.groups.map((g) => ({ value: String(g.id), label: g.name }))
  const change = (index: number, row: Partial<RoleRowDraft>) => onChange(rows.map((r, i) => (i === index ? { ...r, ...row } : r)))
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Permissions
      </Text>
      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          No rows: this role grants nothing on any host (administrator roles need none).
        </Text>
      )}
      {rows.map((row, index) => (
        <Paper key={index} withBorder p="sm" data-testid={`role-row-${index}`}>
          <Stack gap="xs">
            <Group grow align="flex-start">
              <MultiSelect
                label="Hosts"
                placeholder={row.hosts.length || row.hostgroups.length ? undefined : 'Every host'}
                data={hosts}
                value={row.hosts.map(String)}
                onChange={(v) => change(index, { hosts: v.map(Number) })}
                searchable
                limit={50}
                clearable
                nothingFoundMessage="No such host"
                aria-label={`Hosts of row ${index + 1}`}
              />
              <MultiSelect
                label="Host groups"
                placeholder={row.hosts.length || row.hostgroups.length ? undefined : 'Every host'}
                data={groups}
                value={row.hostgroups.map(String)}
                onChange={(v) => change(index, { hostgroups: v.map(Number) })}
                searchable
                clearable
                nothingFoundMessage="No such group"
                aria-label={`Host groups of row ${index + 1}`}
              />
            </Group>
            <Group justify="space-between">
              <Group gap="lg">
                {PERMISSION_BITS.map((p) => (
                  <Tooltip key={p.bit} label={p.hint} openDelay={300}>
                    <Checkbox
                      label={p.label}
                      aria-label={`${p.label} in row ${index + 1}`}
                      checked={(row.permission & p.bit) !== 0}
                      onChange={(e) =>
                        change(index, { permission: e.currentTarget.checked ? row.permission | p.bit : row.permission & ~p.bit })
                      }
                    />
                  </Tooltip>
                ))}
              </Group>
              <Tooltip label="Remove this row">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove row ${index + 1}`}
                  onClick={() => onChange(rows.filter((_, i) => i !== index))}>
                  ✕
                </ActionIcon>
              </Tooltip>
            </Group>
          </Stack>
        </Paper>
      ))}
      <Group>
        <Button variant="light" size="xs" onClick={() => onChange([...rows, { hosts: [], hostgroups: [], permission: 2 }])}>
          Add row
        </Button>
        <Text size="xs" c="dimmed">
          A row naming no host and no group applies to every host, including hosts that register later.
        </Text>
      </Group>
    </Stack>
  )
}
