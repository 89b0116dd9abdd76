// Single sign-on (admin/sso/*, issue 30 §2): OpenID Connect as the server's command line configured it, and
// the mapping table from the identity provider's groups to roles. Only the table can be changed here; each
// change answers the whole settings, which replace the cached ones.
import { queryOptions } from '@tanstack/react-query'
import type { SsoSettings } from '../../shared/api/single-sign-on'
import { apiGet, apiPost } from './client'

export type { SsoGroupMapping, SsoSettings } from '../../shared/api/single-sign-on'

export const ssoSettingsQuery = queryOptions({
  queryKey: ['admin', 'sso'] as const,
  queryFn: () => apiGet<SsoSettings>('admin/sso/get')
})

/** Sets the roles `group` gives; none removes its mapping. */
export const setSsoGroupRoles = (group: string, roleIds: readonly number[]) =>
  apiPost<SsoSettings>('admin/sso/groups/update', { group, roleid: roleIds })
