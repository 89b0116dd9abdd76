// The delivery log (admin/alerts/deliveries/list): each notification with its channel, rules, status,
// attempts, last error and dates, newest first; filters by channel, rule, status and time range (the
// console's one range picker), paged by the server.
import { Anchor, Badge, Group, Pagination, Paper, Select, Stack, Table, Text, Tooltip } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import {
  alertChannelsQuery,
  alertDeliveriesQuery,
  alertRulesQuery,
  DELIVERY_PAGE_SIZE,
  type AlertDelivery,
  type AlertDeliveryStatus,
  type DeliverySearch
} from '../../api/alerts'
import { ErrorNote } from '../../components/error-note'
import { RangePicker } from '../reports/range-picker'
import { formatDateTime } from '../reports/time'
import { StackedTable } from '../../components/stacked-table'

const STATUS_LOOK: Record<AlertDeliveryStatus, { color: string; label: string }> = {
  pending: { color: 'orange', label: 'Pending' },
  delivered: { color: 'teal', label: 'Delivered' },
  failed: { color: 'red', label: 'Failed' },
  suppressed: { color: 'gray', label: 'Suppressed (muted)' }
}

interface Props {
  search: DeliverySearch
  /** A changed filter (the page starts again at 1) or page */
  onChange(patch: Partial<DeliverySearch>): void
}

export function DeliveriesPanel({ search, onChange }: Props) {
  const list = useQuery(alertDeliveriesQuery(search))
  const channels = useQuery(alertChannelsQuery)
  const rules = useQuery(alertRulesQuery)
  const total = list.data?.totalRecords ?? 0
  const pages = Math.max(1, Math.ceil(total / DELIVERY_PAGE_SIZE))
  const filtered = search.channel !== undefined || search.rule !== undefined || search.status !== undefined || search.range !== undefined
  const pick = (value: string | null) => (value === null ? undefined : Number(value))
  return (
    <Stack gap="md">
      <Group align="flex-end">
        <Select
          label="Channel"
          placeholder="Every channel"
          clearable
          w={220}
          value={search.channel === undefined ? null : String(search.channel)}
          data={(channels.data?.records ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          onChange={(v) => onChange({ channel: pick(v), page: undefined })}
        />
        <Select
          label="Rule"
          placeholder="Every rule"
          clearable
          w={220}
          value={search.rule === undefined ? null : String(search.rule)}
          data={(rules.data?.records ?? []).map((r) => ({ value: String(r.id), label: r.name }))}
          onChange={(v) => onChange({ rule: pick(v), page: undefined })}
        />
        <Select
          label="Status"
          placeholder="Every status"
          clearable
          w={180}
          value={search.status ?? null}
          data={(Object.keys(STATUS_LOOK) as AlertDeliveryStatus[]).map((s) => ({ value: s, label: STATUS_LOOK[s].label }))}
          onChange={(v) => onChange({ status: (v ?? undefined) as AlertDeliveryStatus | undefined, page: undefined })}
        />
        <RangePicker
          value={search}
          fallback="any"
          onChange={(range) => onChange({ range: undefined, from: undefined, to: undefined, ...range, page: undefined })}
        />
      </Group>
      <ErrorNote error={list.error} title="The delivery log could not be loaded" />
      {list.data && total === 0 && (
        <Text data-testid="deliveries-empty">
          {filtered ? 'No notification matches these filters.' : 'No notification has been sent yet.'}
        </Text>
      )}
      {list.data && list.data.records.length > 0 && (
        <>
          <Paper withBorder>
            <StackedTable minWidth={980} highlightOnHover aria-label="Delivery log" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Channel</Table.Th>
                  <Table.Th>Rules</Table.Th>
                  <Table.Th>Notification</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th ta="right">Attempts</Table.Th>
                  <Table.Th>Result</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.records.map((d) => (
                  <DeliveryRow key={d.id} delivery={d} />
                ))}
              </Table.Tbody>
            </StackedTable>
          </Paper>
          <Group justify="space-between">
            <Text size="sm" c="dimmed" data-testid="delivery-range">
              {list.data.startIndex + 1}–{list.data.startIndex + list.data.recordsReturned} of {total.toLocaleString()} notifications
            </Text>
            <Pagination
              total={pages}
              value={Math.min(search.page ?? 1, pages)}
              onChange={(page) => onChange({ page })}
              withEdges
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          </Group>
        </>
      )}
    </Stack>
  )
}

/** Recoveries and reminders are worth saying; a plain alert is the default. */
function extraKinds(d: AlertDelivery): string[] {
  return d.kinds.filter((k) => k !== 'alert')
}

function DeliveryRow({ delivery: d }: { delivery: AlertDelivery }) {
  const look = STATUS_LOOK[d.status]
  return (
    <Table.Tr data-delivery={d.uid}>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(d.createdat)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {d.channel.name}
        </Text>
        <Text size="xs" c="dimmed">
          {d.channel.type}
        </Text>
      </Table.Td>
      <Table.Td data-label="Rules">
        <Text size="sm">{d.rules.map((r) => r.name).join(', ') || '—'}</Text>
      </Table.Td>
      <Table.Td data-wide>
        <Anchor href={d.link} size="sm">
          {d.summary}
        </Anchor>
        <Text size="xs" c="dimmed">
          {d.alerts} alert{d.alerts === 1 ? '' : 's'}
          {extraKinds(d)
            .map((k) => ` · ${k}`)
            .join('')}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={look.color}>
          {look.label}
        </Badge>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {d.deliveredat !== null
            ? formatDateTime(d.deliveredat)
            : d.nextattemptat !== null
              ? `next try ${formatDateTime(d.nextattemptat)}`
              : ''}
        </Text>
      </Table.Td>
      <Table.Td ta="right" data-label="Attempts">
        <Text size="sm">{d.attempts}</Text>
      </Table.Td>
      <Table.Td maw={320} data-wide>
        {/* The last error, then what the channel answered (a server's reply, a program's output). */}
        {d.lasterror && (
          <Tooltip label={d.lasterror} multiline w={360}>
            <Text size="sm" c="red" lineClamp={2}>
              {d.lasterror}
            </Text>
          </Tooltip>
        )}
        {d.log && (
          <Text size="xs" c="dimmed" lineClamp={2} title={d.log}>
            {d.log}
          </Text>
        )}
        {!d.lasterror && !d.log && (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  )
}
