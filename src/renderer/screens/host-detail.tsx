// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../app/root-route'

export const hostDetailRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'hosts/$hostId',
  component: () => <h2>Host</h2>
})
