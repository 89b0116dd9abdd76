// Placeholder: being built.
import { createRoute } from '@tanstack/react-router'
import { consoleRoute } from '../app/root-route'

export const settingsRoute = createRoute({
  getParentRoute: () => consoleRoute,
  path: 'settings',
  component: () => <h2>Settings</h2>
})
