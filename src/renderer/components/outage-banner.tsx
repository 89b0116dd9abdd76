// Honest during an outage: a banner across the page saying since when the figures date (and, when the
// server answers 503, what it says: its database out of reach), and the screen's content marked stale
// (greyed, and announced as such) until the server answers again.
import { Alert, Box, Text } from '@mantine/core'
import { useEffect, useState, type ReactNode } from 'react'
import { onConnection, type Connection } from '../live/connection'
import classes from './outage-banner.module.css'

export function useConnection(): Connection {
  const [connection, setConnection] = useState<Connection>({ reachable: true })
  useEffect(() => onConnection(setConnection), [])
  return connection
}

export function OutageBanner({ connection }: { connection: Connection }) {
  if (connection.reachable) return null
  const since = connection.lastGoodAt === undefined ? undefined : new Date(connection.lastGoodAt)
  return (
    <Alert
      color="red"
      variant="filled"
      role="alert"
      className={classes.banner}
      data-testid="outage-banner"
      title={connection.problem ? 'The server cannot serve its data' : 'The server cannot be reached'}>
      <Text size="sm">
        {connection.problem && <>It says: {connection.problem}. </>}
        {since ? (
          <>
            Figures shown are from <time dateTime={since.toISOString()}>{since.toLocaleTimeString()}</time> and may be out of date.{' '}
          </>
        ) : (
          'Figures shown may be out of date. '
        )}
        Trying again; this page refreshes by itself once the server answers.
      </Text>
    </Alert>
  )
}

/** The screen's content, greyed while its figures may be out of date. */
export function StaleWhenOffline({ connection, children }: { connection: Connection; children: ReactNode }) {
  const stale = !connection.reachable
  const why = connection.problem ? 'the server cannot serve its data' : 'the server cannot be reached'
  return (
    <Box className={classes.content} data-stale={stale || undefined} aria-describedby={stale ? 'stale-note' : undefined}>
      {stale && (
        <Text id="stale-note" className={classes.staleNote}>
          Out of date: {why}.
        </Text>
      )}
      {children}
    </Box>
  )
}
