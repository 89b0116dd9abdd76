// The console's routes. Hash history (/#/hosts/12): the server serves one page at / for every
// screen, and its own 404 and login rules stay untouched by client-side paths.
import type { QueryClient } from '@tanstack/react-query'
import { createHashHistory, createRouter } from '@tanstack/react-router'
import { NotFound } from './not-found'
import { consoleRoute, rootRoute } from './root-route'
import {
  adminAlertsRoute,
  adminAuditRoute,
  adminGroupsRoute,
  adminHostEditRoute,
  adminHostsRoute,
  adminImportRoute,
  adminPulledAgentsRoute,
  adminRolesRoute,
  adminSingleSignOnRoute,
  adminUsersRoute,
  dashboardRoute,
  eventDetailRoute,
  eventsRoute,
  hostDetailRoute,
  hostsRoute,
  serviceDetailRoute,
  servicesRoute,
  settingsRoute,
  setupRoute,
  uptimeHostRoute,
  uptimeRoute
} from './routes'

const routeTree = rootRoute.addChildren([
  setupRoute,
  consoleRoute.addChildren([
    dashboardRoute,
    hostsRoute,
    servicesRoute,
    hostDetailRoute,
    serviceDetailRoute,
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
    adminPulledAgentsRoute,
    adminSingleSignOnRoute,
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
