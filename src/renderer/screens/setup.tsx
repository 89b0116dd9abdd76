// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { rootRoute } from '../app/root-route'

export const setupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'setup',
  component: () => <h2>First-run setup</h2>
})
