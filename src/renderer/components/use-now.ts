// The current time in unix seconds, refreshed every `everyMs`: ages on screen ("12 s ago") keep counting
// between live updates. One timer per screen, not per row.
import { useEffect, useState } from 'react'

export function useNow(everyMs = 5_000): number {
  const [now, setNow] = useState(() => Date.now() / 1000)
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() / 1000), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}
