// Every console route: its path, how its URL search is read, what it starts loading, and its screen,
// whose code is a chunk of its own loaded with the route (lazyRouteComponent). Nothing here imports a
// screen: the first script holds the frame and these definitions, each screen comes when it is opened
// (test/renderer/first-load-budget.test.ts keeps it under its budget).
import { createRoute, lazyRouteComponent } from '@tanstack/react-router'
import { eventsSummaryQuery } from '../api/events-summary'
import { hostDetailQuery, hostSummaryQuery } from '../api/status'
import { parseAlertsSearch } from '../screens/alerts/alerts-search'
import { attentionQuery, firstHostPageQuery, runningOutQuery } from '../screens/monitor/first-pages'
import { hostFilter, validateHostSearch } from '../screens/monitor/host-search'
import { validateServiceSearch } from '../screens/monitor/service-search'
import { parseAuditSearch } from '../screens/reports/audit-search'
import { parseEventSearch } from '../screens/reports/event-search'
import { parseUptimeListSearch, parseUptimeSearch } from '../screens/reports/uptime-search'
import { consoleRoute, rootRoute } from './root-route'

const positiveId = (raw: string) => {
  const id = Number(raw)
  return Number.isInteger(id) && id > 0 ? id : undefined
}

export const setupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'setup',
  component: lazyRouteComponent(() => import('../screens/setup'), 'SetupScreen')
})

export const dashboardRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/',
  // Started with the route, not when the frame has its profile: the answers arrive in parallel.
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(hostSummaryQuery)
    void queryClient.prefetchQuery(attentionQuery)
    void queryClient.prefetchQuery(eventsSummaryQuery)
    void queryClient.prefetchQuery(runningOutQuery)
  },
  component: lazyRouteComponent(() => import('../screens/dashboard'), 'Dashboard')
})

export const hostsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'hosts',
  validateSearch: validateHostSearch,
  // The first page starts loading with the route, in parallel with the frame's profile.
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(firstHostPageQuery(hostFilter(deps)))
  },
  component: lazyRouteComponent(() => import('../screens/hosts-list'), 'HostsScreen')
})

export const servicesRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'services',
  validateSearch: validateServiceSearch,
  component: lazyRouteComponent(() => import('../screens/services'), 'ServicesScreen')
})

export const hostDetailRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'hosts/$hostId',
  // The charts' range, so a reload or a shared link shows the same charts.
  validateSearch: parseUptimeSearch,
  loader: ({ context: { queryClient }, params }) => {
    const hostId = positiveId(params.hostId)
    if (hostId) void queryClient.prefetchQuery(hostDetailQuery(hostId))
  },
  component: lazyRouteComponent(() => import('../screens/host-detail'), 'HostDetailScreen')
})

/** One service of a host, by name (names are unique per host, and stay the same when Monit is reloaded). */
export const serviceDetailRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'hosts/$hostId/services/$serviceName',
  validateSearch: parseUptimeSearch,
  loader: ({ context: { queryClient }, params }) => {
    const hostId = positiveId(params.hostId)
    if (hostId) void queryClient.prefetchQuery(hostDetailQuery(hostId))
  },
  component: lazyRouteComponent(() => import('../screens/service-detail'), 'ServiceDetailScreen')
})

export const eventsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'events',
  validateSearch: parseEventSearch,
  component: lazyRouteComponent(() => import('../screens/events'), 'EventsScreen')
})

export const eventDetailRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'events/$eventId',
  component: lazyRouteComponent(() => import('../screens/event-detail'), 'EventDetailScreen')
})

export const uptimeRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'uptime',
  // The range and the name filter, so a reload or a shared link shows the same report.
  validateSearch: parseUptimeListSearch,
  component: lazyRouteComponent(() => import('../screens/uptime'), 'UptimeScreen')
})

export const uptimeHostRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'uptime/$hostId',
  validateSearch: parseUptimeSearch,
  component: lazyRouteComponent(() => import('../screens/uptime-host'), 'UptimeHostScreen')
})

export const adminHostsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/hosts',
  component: lazyRouteComponent(() => import('../screens/admin-hosts'), 'AdminHostsScreen')
})

export const adminHostEditRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/hosts/$hostId',
  component: lazyRouteComponent(() => import('../screens/admin-host-edit'), 'AdminHostEditScreen')
})

export const adminUsersRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/users',
  component: lazyRouteComponent(() => import('../screens/admin-users'), 'AdminUsersScreen')
})

export const adminRolesRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/roles',
  component: lazyRouteComponent(() => import('../screens/admin-roles'), 'AdminRolesScreen')
})

export const adminGroupsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/groups',
  component: lazyRouteComponent(() => import('../screens/admin-groups'), 'AdminGroupsScreen')
})

export const adminAlertsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/alerts',
  validateSearch: parseAlertsSearch,
  component: lazyRouteComponent(() => import('../screens/admin-alerts'), 'AdminAlertsScreen')
})

export const adminAuditRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/audit',
  validateSearch: parseAuditSearch,
  component: lazyRouteComponent(() => import('../screens/admin-audit'), 'AdminAuditScreen')
})

export const adminImportRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/import',
  validateSearch: (s: Record<string, unknown>): { firstrun?: boolean } =>
    s.firstrun === true || s.firstrun === 'true' ? { firstrun: true } : {},
  component: lazyRouteComponent(() => import('../screens/admin/import-screen'), 'AdminImportScreen')
})

/** Agents the server reads from their httpd (issue 30 §1). */
export const adminPulledAgentsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/pulled-agents',
  component: lazyRouteComponent(() => import('../screens/admin/pulled-agents'), 'AdminPulledAgentsScreen')
})

/** Single sign-on as configured, and which roles each identity provider group gives (issue 30 §2). */
export const adminSingleSignOnRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/single-sign-on',
  component: lazyRouteComponent(() => import('../screens/admin/single-sign-on'), 'AdminSingleSignOnScreen')
})

export const settingsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'settings',
  component: lazyRouteComponent(() => import('../screens/settings'), 'SettingsScreen')
})
