// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../app/root-route'

export const dashboardRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: '/',
  component: () => <h2>Dashboard</h2>
})
