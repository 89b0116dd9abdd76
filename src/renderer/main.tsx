// Console entry. The screens arrive with the console issue; this shows the server's health.
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'

function Health() {
  const health = useQuery({
    queryKey: ['health'],
    queryFn: async () => (await fetch('/health')).json() as Promise<{ status: string; version: string }>
  })
  if (health.isPending) return <p>Connecting…</p>
  if (health.isError) return <p role="alert">Server unreachable: {health.error.message}</p>
  return <p>Overseer {health.data.version}: {health.data.status}</p>
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={new QueryClient()}>
      <Health />
    </QueryClientProvider>
  </StrictMode>
)
