// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../app/root-route'

export const adminUsersRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/users',
  component: () => <h2>Users</h2>
})
