// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../app/root-route'

export const eventDetailRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'events/$eventId',
  component: () => <h2>Event</h2>
})
