// The frame around every screen: a skip link, navigation (administration only for administrators), the
// live indicator, the colour scheme switch, the user menu, and the outage banner over the screen.
import {
  ActionIcon,
  AppShell,
  Badge,
  Burger,
  Group,
  Menu,
  NavLink,
  ScrollArea,
  Text,
  Title,
  Tooltip,
  useComputedColorScheme,
  useMantineColorScheme
} from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { Link, Outlet, useRouterState } from '@tanstack/react-router'
import { Suspense, useEffect, useState } from 'react'
import { logOut } from '../api/client'
import { useProfile } from '../api/profile'
import { OutageBanner, StaleWhenOffline, useConnection } from '../components/outage-banner'
import { onLiveState, type LiveState } from '../live/live-updates'
import { useLiveStream } from '../live/use-live-stream'
import { useFirstChannelOffer } from './first-channel'
import { useFirstImportOffer } from './first-import'
import { NoAccess } from './no-access'
import { SkipLink } from './skip-link'
import { usePageTitle } from './use-page-title'
import { useScreenPreload } from './use-screen-preload'

const monitoring = [
  { to: '/', label: 'Dashboard' },
  { to: '/hosts', label: 'Hosts' },
  { to: '/services', label: 'Services' },
  { to: '/events', label: 'Events' },
  { to: '/uptime', label: 'Uptime' }
] as const

const administration = [
  { to: '/admin/hosts', label: 'Host management' },
  { to: '/admin/pulled-agents', label: 'Pulled agents' },
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/roles', label: 'Roles' },
  { to: '/admin/single-sign-on', label: 'Single sign-on' },
  { to: '/admin/groups', label: 'Host groups' },
  { to: '/admin/alerts', label: 'Alerts' },
  { to: '/admin/audit', label: 'Audit log' },
  { to: '/admin/import', label: 'Import from M/Monit' }
] as const

const MAIN_ID = 'content'

export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure()
  const profile = useProfile()
  useLiveStream()
  useFirstChannelOffer()
  useFirstImportOffer()
  usePageTitle()
  useScreenPreload()
  const connection = useConnection()
  const path = useRouterState({ select: (s) => s.location.pathname })
  const active = (to: string) => (to === '/' ? path === '/' : path === to || path.startsWith(`${to}/`))
  const forbidden = !profile.admin && (path === '/admin' || path.startsWith('/admin/'))
  return (
    <AppShell header={{ height: 52 }} navbar={{ width: 210, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <SkipLink target={MAIN_ID} />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Title order={1} size="h4">
              Overseer
            </Title>
            <LiveBadge />
          </Group>
          <Group gap="xs" wrap="nowrap">
            <ColorSchemeToggle />
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="default" size="lg" aria-label={`Account of ${profile.uname}`}>
                  <Text size="sm" fw={700}>
                    {(profile.fullname || profile.uname).slice(0, 1).toUpperCase()}
                  </Text>
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{profile.fullname || profile.uname}</Menu.Label>
                <Menu.Item component={Link} to="/settings">
                  Settings and profile
                </Menu.Item>
                <Menu.Item onClick={() => void logOut()}>Log out</Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation">
        <ScrollArea>
          {monitoring.map((item) => (
            <NavLink key={item.to} component={Link} to={item.to} label={item.label} active={active(item.to)} onClick={close} />
          ))}
          {profile.admin && (
            <>
              <Text size="xs" c="dimmed" fw={700} mt="md" mb={4} px="sm" tt="uppercase">
                Administration
              </Text>
              {administration.map((item) => (
                <NavLink key={item.to} component={Link} to={item.to} label={item.label} active={active(item.to)} onClick={close} />
              ))}
            </>
          )}
          <NavLink component={Link} to="/settings" label="Settings" active={active('/settings')} onClick={close} mt="md" />
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_ID} tabIndex={-1}>
        <OutageBanner connection={connection} />
        <StaleWhenOffline connection={connection}>
          <Suspense fallback={<Text c="dimmed">Loading…</Text>}>{forbidden ? <NoAccess /> : <Outlet />}</Suspense>
        </StaleWhenOffline>
      </AppShell.Main>
    </AppShell>
  )
}

function LiveBadge() {
  const [state, setState] = useState<LiveState>('connecting')
  useEffect(() => onLiveState(setState), [])
  const look = { connecting: ['gray', 'Connecting'], live: ['green', 'Live'], reconnecting: ['orange', 'Reconnecting'] } as const
  return (
    <Tooltip label={state === 'live' ? 'Changes appear as they happen' : 'Waiting for the live stream'}>
      <Badge color={look[state][0]} variant="dot" data-live={state}>
        {look[state][1]}
      </Badge>
    </Tooltip>
  )
}

function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme()
  const computed = useComputedColorScheme('light')
  const next = computed === 'dark' ? 'light' : 'dark'
  return (
    <Tooltip label={`Switch to ${next} theme`}>
      <ActionIcon variant="default" size="lg" aria-label={`Switch to ${next} theme`} onClick={() => setColorScheme(next)}>
        <Text size="sm">{computed === 'dark' ? '☀' : '☾'}</Text>
      </ActionIcon>
    </Tooltip>
  )
}
