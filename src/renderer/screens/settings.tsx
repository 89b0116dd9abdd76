// Settings: everyone's own profile, password and API tokens, and where the HTTP API is described; for
// administrators also the collector credentials with the monitrc line, the server settings (port, session
// timeout, history retention) and every user's API tokens.
import { Stack, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useProfile } from '../api/profile'
import { settingsQuery } from '../api/settings'
import { ErrorNote } from '../components/error-note'
import { ApiDescription } from './admin/api-description'
import { AllApiTokens, OwnApiTokens } from './admin/api-tokens'
import { CollectorCredentials } from './admin/collector-credentials'
import { OwnPassword, OwnProfile } from './admin/own-profile'
import { ServerSettingsForm } from './admin/server-settings'

export function SettingsScreen() {
  const profile = useProfile()
  return (
    <Stack gap="md" maw={960}>
      <Title order={2}>Settings</Title>
      <OwnProfile profile={profile} />
      <OwnPassword />
      <OwnApiTokens />
      {profile.admin && <AdministratorSettings />}
      <ApiDescription />
    </Stack>
  )
}

function AdministratorSettings() {
  const settings = useQuery(settingsQuery)
  return (
    <>
      <ErrorNote error={settings.error} title="The server settings could not be loaded" />
      {settings.data && (
        <>
          <CollectorCredentials urls={settings.data.urls} />
          <ServerSettingsForm settings={settings.data} />
          <AllApiTokens />
        </>
      )}
    </>
  )
}
