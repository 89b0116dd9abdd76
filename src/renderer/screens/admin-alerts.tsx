// Administration › Alerts (issue 13): channels, rules, mutes and the delivery log, one tab each. The tab
// and the log's filters and range live in the URL (/#/admin/alerts?tab=deliveries&status=failed), so a view can be
// bookmarked and the back button returns to it.
import { Stack, Tabs, Title } from '@mantine/core'
import { createRoute, useNavigate } from '@tanstack/react-router'
import { Range } from '../../shared/ranges'
import type { DeliverySearch } from '../api/alerts'
import { consoleRoute } from '../app/root-route'
import { ChannelsPanel } from './alerts/channels-panel'
import { DeliveriesPanel } from './alerts/deliveries-panel'
import { MutesPanel } from './alerts/mutes-panel'
import { RulesPanel } from './alerts/rules-panel'
import { oneOf, optionalInt } from './reports/search-params'

const TABS = ['channels', 'rules', 'mutes', 'deliveries'] as const
type Tab = (typeof TABS)[number]

interface AlertsSearch extends DeliverySearch {
  tab?: Tab
  /** Opens the new channel form for this type (a link from first-run setup) */
  new?: string
}

export const adminAlertsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/alerts',
  validateSearch: (s: Record<string, unknown>): AlertsSearch => ({
    tab: oneOf(TABS, s.tab),
    new: typeof s.new === 'string' && /^[a-z]{1,32}$/.test(s.new) ? s.new : undefined,
    channel: optionalInt(s.channel, 1),
    rule: optionalInt(s.rule, 1),
    status: oneOf(['pending', 'delivered', 'failed'] as const, s.status),
    range: optionalInt(s.range, Range.Now, Range.Custom),
    from: optionalInt(s.from),
    to: optionalInt(s.to),
    page: optionalInt(s.page, 2)
  }),
  component: AdminAlertsScreen
})

function AdminAlertsScreen() {
  const { tab = 'channels', new: newType, ...deliveries } = adminAlertsRoute.useSearch()
  const navigate = useNavigate({ from: '/admin/alerts' })
  return (
    <Stack gap="md">
      <Title order={2}>Alerts</Title>
      <Tabs value={tab} onChange={(next) => void navigate({ search: { tab: oneOf(TABS, next) } })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="channels">Channels</Tabs.Tab>
          <Tabs.Tab value="rules">Rules</Tabs.Tab>
          <Tabs.Tab value="mutes">Mutes</Tabs.Tab>
          <Tabs.Tab value="deliveries">Delivery log</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="channels">
          {/* The form asked for by the link opens once: the URL drops it, so reload and back do not reopen it. */}
          <ChannelsPanel newType={newType} onNewOpened={() => void navigate({ search: {}, replace: true })} />
        </Tabs.Panel>
        <Tabs.Panel value="rules">
          <RulesPanel />
        </Tabs.Panel>
        <Tabs.Panel value="mutes">
          <MutesPanel />
        </Tabs.Panel>
        <Tabs.Panel value="deliveries">
          <DeliveriesPanel search={deliveries} onChange={(patch) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  )
}
