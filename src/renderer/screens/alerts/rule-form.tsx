// Create or edit an alert rule: which events (hosts, groups, service pattern and types, states, event
// types, heartbeat) go to which channels, and how (group wait, reminders, recovery). Empty pickers mean
// "every": the hints say so, as the API reads them. Saving first asks the server how many failures active
// now the rule would page about (a rule is matched against events as they come): when there are some,
// the form asks whether to notify them now.
import {
  Alert,
  Autocomplete,
  Button,
  List,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput
} from '@mantine/core'
import { schemaResolver, useForm } from '@mantine/form'
import { useState } from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { eventClasses, EventState, serviceTypeLabels } from '../../../shared/codes'
import type { GroupList } from '../../api/admin'
import { ruleInScope, saveRule, type AlertChannelRecord, type AlertRuleRecord, type AlertRuleScope, type RuleDraft } from '../../api/alerts'
import { ErrorNote } from '../../components/error-note'
import { serviceListPageQuery } from '../../api/overview'
import { ruleFormRules } from '../../../shared/api/alert-rules'
import { formatDateTime } from '../reports/time'

export const NEW_RULE: RuleDraft = {
  name: '',
  enabled: true,
  channelid: [],
  hostid: [],
  hostgroupid: [],
  servicepattern: '',
  servicetype: [],
  state: [EventState.Failed, EventState.Succeeded],
  eventtype: 0,
  heartbeat: true,
  groupwait: 30,
  reminder: 0,
  recovery: true
}

/** As people read them: the failure first */
export const STATE_ORDER = [EventState.Failed, EventState.Changed, EventState.Succeeded]
export const STATE_LABELS: Record<number, string> = {
  [EventState.Failed]: 'Failed',
  [EventState.Changed]: 'Changed',
  [EventState.Succeeded]: 'Succeeded'
}
/** What each state sends: the editor says it beside each box. */
const STATE_SENDS: Record<number, string> = {
  [EventState.Failed]: 'a check fails: "process nginx does not exist"',
  [EventState.Changed]: 'a watched value changes: a checksum, a PID, a Monit reload or an action done',
  [EventState.Succeeded]: "a check succeeds that had not failed (the end of a failure is Recovery's)"
}

const ids = (values: string[]) => values.map(Number)
const strings = (values: readonly number[]) => values.map(String)
/** Event type bits ⇄ the picker's values */
const eventBits = (bitmap: number) => eventClasses.filter((c) => (bitmap & c.id) !== 0).map((c) => String(c.id))
// Summed, not OR-ed: the Forecast class is bit 31, which `|` (32-bit signed) would make negative.
const bitmapOf = (values: string[]) => [...new Set(values)].reduce((bits, v) => bits + Number(v), 0)

interface Props {
  rule?: AlertRuleRecord
  channels: readonly AlertChannelRecord[]
  hostsAndGroups: GroupList
  onClose(): void
  onSaved(): void
}

export function RuleForm({ rule, channels, hostsAndGroups, onClose, onSaved }: Props) {
  const form = useForm<RuleDraft>({
    mode: 'controlled',
    initialValues: rule ? { ...rule } : NEW_RULE,
    validate: schemaResolver(ruleFormRules, { sync: true })
  })
  const draft = form.getValues()
  const serviceNames = useServiceNames(draft.servicepattern)
  /** Active failures the rule would page about, once the server was asked: the form asks whether to notify them. */
  const [pending, setPending] = useState<{ values: RuleDraft; scope: AlertRuleScope }>()
  const save = useMutation({
    mutationFn: ({ values, notify }: { values: RuleDraft; notify: boolean }) => saveRule(rule?.id, values, notify),
    onSuccess: onSaved
  })
  const ask = useMutation({
    mutationFn: (values: RuleDraft) => ruleInScope(rule?.id, values),
    onSuccess: (scope, values) => {
      if (scope.failures > 0 && values.enabled) setPending({ values, scope })
      else save.mutate({ values, notify: false })
    }
  })
  const set = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]) => form.setFieldValue(key, value as never)

  return (
    <Modal opened onClose={onClose} title={rule ? `Edit ${rule.name}` : 'New rule'} size="xl">
      {pending ? (
        <NotifyActive
          scope={pending.scope}
          saving={save.isPending}
          error={save.error}
          onChoose={(notify) => save.mutate({ values: pending.values, notify })}
          onBack={() => setPending(undefined)}
        />
      ) : (
        <form onSubmit={form.onSubmit((values) => ask.mutate(values))} noValidate>
          <Stack>
            <Group align="flex-start" grow>
              <TextInput
                label="Name"
                required
                value={draft.name}
                onChange={(e) => set('name', e.currentTarget.value)}
                error={form.errors.name}
                data-autofocus
              />
              <Switch mt={30} label="Enabled" checked={draft.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} />
            </Group>
            <MultiSelect
              label="Channels"
              required
              description="Where the notifications go"
              data={channels.map((c) => ({ value: String(c.id), label: c.enabled ? c.name : `${c.name} (disabled)` }))}
              value={strings(draft.channelid)}
              onChange={(v) => set('channelid', ids(v))}
              searchable
              error={form.errors.channelid}
              nothingFoundMessage="No such channel"
            />

            <Text fw={500} size="sm" mt="xs">
              Which events
            </Text>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <MultiSelect
                label="Hosts"
                description="None and no group: every host"
                searchable
                clearable
                limit={50}
                data={hostsAndGroups.hosts.map((h) => ({ value: String(h.id), label: h.name }))}
                value={strings(draft.hostid)}
                onChange={(v) => set('hostid', ids(v))}
                error={form.errors.hostid}
                nothingFoundMessage="No such host"
              />
              <MultiSelect
                label="Host groups"
                description="Every host of these groups"
                searchable
                clearable
                data={hostsAndGroups.groups.map((g) => ({ value: String(g.id), label: g.name }))}
                value={strings(draft.hostgroupid)}
                onChange={(v) => set('hostgroupid', ids(v))}
                error={form.errors.hostgroupid}
                nothingFoundMessage="No such group"
              />
              <Autocomplete
                label="Service name"
                description="A name, or a pattern with * and ?; empty: every service"
                placeholder="e.g. nginx* or *db"
                data={serviceNames}
                value={draft.servicepattern}
                onChange={(v) => set('servicepattern', v)}
                error={form.errors.servicepattern}
              />
              <MultiSelect
                label="Service types"
                description="None: every type"
                searchable
                clearable
                data={serviceTypeLabels.map((label, code) => ({ value: String(code), label }))}
                value={strings(draft.servicetype)}
                onChange={(v) => set('servicetype', ids(v))}
                error={form.errors.servicetype}
              />
              <MultiSelect
                label="Event types"
                description="None: every type"
                searchable
                clearable
                data={eventClasses.map((c) => ({ value: String(c.id), label: c.name }))}
                value={eventBits(draft.eventtype)}
                onChange={(v) => set('eventtype', bitmapOf(v))}
                error={form.errors.eventtype}
              />
              <Checkbox.Group
                label="States"
                description="What each sends; none ticked: every state"
                value={strings(draft.state)}
                onChange={(v) => set('state', ids(v))}
                error={form.errors.state}>
                <Stack mt={8} gap={6}>
                  {STATE_ORDER.map((s) => (
                    <Checkbox key={s} value={String(s)} label={STATE_LABELS[s]} description={STATE_SENDS[s]} />
                  ))}
                </Stack>
              </Checkbox.Group>
            </SimpleGrid>
            <Switch
              label="Heartbeat: tell when a host stops reporting and when it reports again"
              checked={draft.heartbeat}
              onChange={(e) => set('heartbeat', e.currentTarget.checked)}
              error={form.errors.heartbeat}
            />

            <Text fw={500} size="sm" mt="xs">
              How
            </Text>
            <Group align="flex-start">
              <NumberInput
                label="Group wait (seconds)"
                description="Alerts within it go as one message"
                min={0}
                max={86400}
                allowDecimal={false}
                w={230}
                value={draft.groupwait}
                onChange={(v) => set('groupwait', Number(v))}
                error={form.errors.groupwait}
              />
              <NumberInput
                label="Reminder (minutes)"
                description="Again while it stays failed; 0: off"
                min={0}
                max={525600}
                allowDecimal={false}
                w={230}
                value={draft.reminder}
                onChange={(v) => set('reminder', Number(v))}
                error={form.errors.reminder}
              />
            </Group>
            <Switch
              label="Recovery: also tell when it recovers"
              description="One message when a failure this rule tells of ends (“Recovered: process nginx exists”), whatever the states ticked; it needs Failed. Off: the end of a failure is not told, even with Succeeded ticked."
              checked={draft.recovery}
              onChange={(e) => set('recovery', e.currentTarget.checked)}
              error={form.errors.recovery}
            />

            {/* What only the server knows (a name taken already) shows above the buttons. */}
            <ErrorNote error={ask.error ?? save.error} title="Not saved" />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={ask.isPending || save.isPending}>
                {rule ? 'Save' : 'Create rule'}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  )
}

/** The failures active now that the rule would page about: notify them on saving, or not. */
function NotifyActive({
  scope,
  saving,
  error,
  onChoose,
  onBack
}: {
  scope: AlertRuleScope
  saving: boolean
  error: Error | null
  onChoose(notify: boolean): void
  onBack(): void
}) {
  const n = scope.failures
  const noun = n === 1 ? 'failure' : 'failures'
  return (
    <Stack data-testid="notify-active">
      <Alert color="orange" title={`${n} ${noun} in this rule's scope ${n === 1 ? 'is' : 'are'} active now`}>
        A rule tells of events as they happen: unless notified now, these are told only once they change, or by the rule's reminders if it
        has some.
      </Alert>
      <List size="sm" spacing={4}>
        {scope.first.map((f) => (
          <List.Item key={`${f.hostid}:${f.service}:${f.what}`}>
            {f.what}, since {formatDateTime(f.date)}
          </List.Item>
        ))}
        {n > scope.first.length && <List.Item>… and {n - scope.first.length} more</List.Item>}
      </List>
      <ErrorNote error={error} title="Not saved" />
      <Group justify="flex-end">
        <Button variant="default" onClick={onBack}>
          Back
        </Button>
        <Button variant="default" onClick={() => onChoose(false)} loading={saving}>
          Save without notifying
        </Button>
        <Button onClick={() => onChoose(true)} loading={saving}>
          Notify the {n} {noun} now
        </Button>
      </Group>
    </Stack>
  )
}

/** Names of the services the hosts report whose name contains what was typed before its first wildcard. */
function useServiceNames(typed: string): string[] {
  const text = typed.split(/[*?]/)[0].trim()
  const found = useQuery(serviceListPageQuery({ servicepattern: text || undefined, sort: 'name' }, 0, 200))
  return [...new Set((found.data?.records ?? []).map((s) => s.name))]
}
