// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../app/root-route'

export const adminHostEditRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/hosts/$hostId',
  component: () => <h2>Edit host</h2>
})
