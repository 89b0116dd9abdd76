// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../app/root-route'

export const hostsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'hosts',
  component: () => <h2>Hosts</h2>
})
