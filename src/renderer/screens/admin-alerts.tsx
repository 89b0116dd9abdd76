// Administration › Alerts (issue 13): channels, rules, mutes and the delivery log, one tab each. The tab
// and the log's filters and range live in the URL (/#/admin/alerts?tab=deliveries&status=failed), so a view can be
// bookmarked and the back button returns to it.
import { Stack, Tabs, Title } from '@mantine/core'
import { useNavigate } from '@tanstack/react-router'
import { ChannelsPanel } from './alerts/channels-panel'
import { DeliveriesPanel } from './alerts/deliveries-panel'
import { MutesPanel } from './alerts/mutes-panel'
import { RulesPanel } from './alerts/rules-panel'
import { adminAlertsRoute } from '../app/routes'
import { ALERT_TABS } from './alerts/alerts-search'
import { oneOf } from './reports/search-params'

export function AdminAlertsScreen() {
  const { tab = 'channels', new: newType, ...deliveries } = adminAlertsRoute.useSearch()
  const navigate = useNavigate({ from: '/admin/alerts' })
  return (
    <Stack gap="md">
      <Title order={2}>Alerts</Title>
      <Tabs value={tab} onChange={(next) => void navigate({ search: { tab: oneOf(ALERT_TABS, next) } })} keepMounted={false}>
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
