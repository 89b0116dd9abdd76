// The audit log for administrators (admin/audit/list): who changed what and when, from where, newest
// first; filters by user, action, text and time range in the URL, paged by the server; the CSV export
// takes the same filters.
import { Button, Code, Group, Pagination, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { AUDIT_PAGE_SIZE, auditExportUrl, auditQuery, type AuditRecord, type AuditSearch } from '../api/audit'
import { ErrorNote } from '../components/error-note'
import { RangePicker } from './reports/range-picker'
import { filterText } from './reports/audit-search'
import { formatDateTime } from './reports/time'
import { adminAuditRoute } from '../app/routes'
import { StackedTable } from '../components/stacked-table'

export function AdminAuditScreen() {
  const search = adminAuditRoute.useSearch()
  const navigate = useNavigate({ from: '/admin/audit' })
  const change = (patch: Partial<AuditSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })
  const list = useQuery(auditQuery(search))
  const total = list.data?.totalRecords ?? 0
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE))
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Audit log</Title>
        <Button component="a" href={auditExportUrl(search)} download="audit-log.csv" variant="default">
          Export CSV
        </Button>
      </Group>
      <Filters key={`${search.user}|${search.action}|${search.text}`} search={search} onChange={change} />
      <ErrorNote error={list.error} title="The audit log could not be loaded" />
      {list.data && total === 0 && <Text data-testid="audit-empty">No entry matches these filters.</Text>}
      {list.data && list.data.records.length > 0 && (
        <>
          <Paper withBorder>
            <StackedTable minWidth={860} highlightOnHover aria-label="Audit log" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>User</Table.Th>
                  <Table.Th>Address</Table.Th>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>Target</Table.Th>
                  <Table.Th>Detail</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.records.map((r) => (
                  <AuditRow key={r.id} record={r} />
                ))}
              </Table.Tbody>
            </StackedTable>
          </Paper>
          <Group justify="space-between">
            <Text size="sm" c="dimmed" data-testid="audit-range">
              {list.data.startIndex + 1}–{list.data.startIndex + list.data.recordsReturned} of {total.toLocaleString()} entries
            </Text>
            <Pagination
              total={pages}
              value={Math.min(search.page ?? 1, pages)}
              onChange={(page) => change({ page })}
              withEdges
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          </Group>
        </>
      )}
    </Stack>
  )
}

/** The text filters apply together, on Filter (or Enter); the range at once. */
function Filters({ search, onChange }: { search: AuditSearch; onChange(patch: Partial<AuditSearch>): void }) {
  const [user, setUser] = useState(search.user ?? '')
  const [action, setAction] = useState(search.action ?? '')
  const [contains, setContains] = useState(search.text ?? '')
  const apply = (e: FormEvent) => {
    e.preventDefault()
    onChange({ user: filterText(user), action: filterText(action), text: filterText(contains), page: undefined })
  }
  return (
    <form onSubmit={apply} aria-label="Audit log filters">
      <Group align="flex-end">
        <TextInput label="User" placeholder="Any user" w={160} value={user} onChange={(e) => setUser(e.currentTarget.value)} />
        <TextInput
          label="Action"
          placeholder="e.g. login-failed"
          w={180}
          value={action}
          onChange={(e) => setAction(e.currentTarget.value)}
        />
        <TextInput
          label="Text"
          placeholder="In target or detail"
          w={200}
          value={contains}
          onChange={(e) => setContains(e.currentTarget.value)}
        />
        <Button type="submit">Filter</Button>
        <RangePicker
          value={search}
          fallback="any"
          onChange={(range) => onChange({ range: undefined, from: undefined, to: undefined, ...range, page: undefined })}
        />
      </Group>
    </form>
  )
}

function AuditRow({ record: r }: { record: AuditRecord }) {
  return (
    <Table.Tr data-audit={r.id}>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(r.at)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{r.uname}</Text>
      </Table.Td>
      <Table.Td data-label="From">
        <Text size="sm">{r.address}</Text>
      </Table.Td>
      <Table.Td>
        <Code>{r.action}</Code>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{r.target}</Text>
      </Table.Td>
      <Table.Td data-wide>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
          {r.detail}
        </Text>
      </Table.Td>
    </Table.Tr>
  )
}
