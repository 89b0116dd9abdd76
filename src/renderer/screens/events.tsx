// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../app/root-route'

export const eventsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'events',
  component: () => <h2>Events</h2>
})
