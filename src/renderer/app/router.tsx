// The console's routes. Hash history (/#/hosts/12): the server serves one page at / for every
// screen, and its own 404 and login rules stay untouched by client-side paths.
import type { QueryClient } from '@tanstack/react-query'
import { createHashHistory, createRouter } from '@tanstack/react-router'
import { adminAlertsRoute } from '../screens/admin-alerts'
import { adminAuditRoute } from '../screens/admin-audit'
import { adminGroupsRoute } from '../screens/admin-groups'
import { adminHostEditRoute } from '../screens/admin-host-edit'
import { adminHostsRoute } from '../screens/admin-hosts'
import { adminImportRoute } from '../screens/admin/import-screen'
import { adminRolesRoute } from '../screens/admin-roles'
import { adminUsersRoute } from '../screens/admin-users'
import { dashboardRoute } from '../screens/dashboard'
import { eventDetailRoute } from '../screens/event-detail'
import { eventsRoute } from '../screens/events'
import { hostDetailRoute } from '../screens/host-detail'
import { hostsRoute } from '../screens/hosts-list'
import { servicesRoute } from '../screens/services'
import { settingsRoute } from '../screens/settings'
import { setupRoute } from '../screens/setup'
import { uptimeRoute } from '../screens/uptime'
import { uptimeHostRoute } from '../screens/uptime-host'
import { consoleRoute, rootRoute } from './root-route'
import { NotFound } from './not-found'

const routeTree = rootRoute.addChildren([
  setupRoute,
  consoleRoute.addChildren([
    dashboardRoute,
    hostsRoute,
    servicesRoute,
    hostDetailRoute,
    eventsRoute,
    eventDetailRoute,
    uptimeRoute,
    uptimeHostRoute,
    adminHostsRoute,
    adminHostEditRoute,
    adminUsersRoute,
    adminRolesRoute,
    adminGroupsRoute,
    adminAlertsRoute,
    adminAuditRoute,
    adminImportRoute,
    settingsRoute
  ])
])

export function createConsoleRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    history: createHashHistory(),
    context: { queryClient },
    defaultPreload: 'intent',
    defaultNotFoundComponent: NotFound
  })
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createConsoleRouter>
  }
}
