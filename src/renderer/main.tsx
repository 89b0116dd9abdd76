// Console entry: theme (following the OS), server state (react-query) and routes; the console frame
// opens the live stream once it knows the session (app/layout.tsx).
import '@mantine/core/styles.css'
import { MantineProvider } from '@mantine/core'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { ApiError } from './api/client'
import { createConsoleRouter } from './app/router'
import { cssVariablesResolver, theme } from './app/theme'
import './app/focus.css'

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Live updates refresh what changed; no polling, no refetch on every focus.
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A 4xx will not get better by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2
    }
  }
})
const router = createConsoleRouter(queryClient)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>
)
