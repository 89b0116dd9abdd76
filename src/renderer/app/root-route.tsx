// The route tree's roots: `rootRoute` for pages outside the console frame (first-run setup) and
// `consoleRoute`, the frame with navigation, under which every console screen creates its route.
import { Outlet, createRootRouteWithContext, createRoute } from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import { profileQuery } from '../api/profile'
import { AppLayout } from './layout'

export interface RouterContext {
  queryClient: QueryClient
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet
})

export const consoleRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'console',
  // The session first: without one the profile answer sends the page to the login form, and no screen
  // has started loading data it may not have.
  beforeLoad: ({ context: { queryClient } }) => queryClient.ensureQueryData(profileQuery),
  component: AppLayout
})
