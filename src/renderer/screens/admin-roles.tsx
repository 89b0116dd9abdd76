// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../app/root-route'

export const adminRolesRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'admin/roles',
  component: () => <h2>Roles</h2>
})
