// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../app/root-route'

export const adminHostsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/hosts',
  component: () => <h2>Hosts administration</h2>
})
