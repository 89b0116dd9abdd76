// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../app/root-route'

export const uptimeHostRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'uptime/$hostId',
  component: () => <h2>Uptime of a host</h2>
})
