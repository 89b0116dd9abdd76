// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../app/root-route'

export const uptimeRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'uptime',
  component: () => <h2>Uptime</h2>
})
