// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../app/root-route'

export const adminGroupsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/groups',
  component: () => <h2>Host groups</h2>
})
