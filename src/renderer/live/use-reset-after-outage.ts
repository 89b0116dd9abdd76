// A button's failure that only said "the server cannot be reached" is over once the server answers
// again: the mutation's error is cleared then, like the queries' (use-live-stream.ts).
import { useEffect, useRef } from 'react'
import { ApiError } from '../api/client'
import { onReconnect } from './connection'

interface Resettable {
  error: unknown
  reset(): void
}

export function useResetAfterOutage(mutation: Resettable): void {
  const latest = useRef(mutation)
  latest.current = mutation
  useEffect(
    () =>
      onReconnect(() => {
        const { error, reset } = latest.current
        if (error instanceof ApiError && error.status === 0) reset()
      }),
    []
  )
}
