// admin/groups/list|create|update|delete|add|remove (spec: Admin host groups; compat 6.9). Mutations
// answer with the affected group, as compat 6.9 recommends.
import { z } from 'zod'
import { endpoint, type ApiEndpoint } from '../http/api'
import { HttpError } from '../http/errors'
import { arg } from '../../shared/api/args'
import { groupNameRule } from '../../shared/api/groups'
import type { HostGroup } from '../store/groups'
import type { ApiDeps } from './deps'
import { groupListAnswer, hostGroup } from '../../shared/api/groups'
import { emptyAnswer } from '../../shared/api/common'

const groupName = groupNameRule
const membership = { id: arg.int(), hostid: z.array(arg.int()) }

export function adminGroupEndpoints({ store }: ApiDeps): ApiEndpoint[] {
  const groups = store.groups
  const existing = (id: number): HostGroup => {
    const group = groups.find(id)
    if (!group) throw new HttpError(404, `no host group with id ${id}`)
    return group
  }
  const requireFreeName = (name: string, exceptId?: number) => {
    const holder = groups.idOfName(name)
    if (holder !== undefined && holder !== exceptId) throw new HttpError(409, `a host group named '${name}' exists already`)
  }
  const requireKnownHosts = (hostIds: readonly number[]) => {
    const unknown = groups.unknownHosts(hostIds)
    if (unknown.length > 0) throw new HttpError(404, `no host with id ${unknown.join(', ')}`)
  }

  return [
    endpoint({
      path: 'admin/groups/list',
      summary: 'Every host group, and every host to choose members from',
      answer: groupListAnswer,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: {},
      handle: () => ({ hosts: groups.hostNames(), groups: groups.list() })
    }),
    endpoint({
      path: 'admin/groups/create',
      summary: 'Creates a host group',
      answer: hostGroup,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { name: groupName },
      handle: ({ params: { name } }) => {
        requireFreeName(name)
        return existing(groups.create(name))
      }
    }),
    endpoint({
      path: 'admin/groups/update',
      summary: 'Renames a host group',
      answer: hostGroup,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int(), name: groupName },
      handle: ({ params: { id, name } }) => {
        existing(id)
        requireFreeName(name, id)
        groups.rename(id, name)
        return existing(id)
      }
    }),
    endpoint({
      path: 'admin/groups/delete',
      summary: 'Deletes a host group',
      answer: emptyAnswer,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int() },
      handle: ({ params: { id } }) => {
        if (!groups.delete(id)) throw new HttpError(404, `no host group with id ${id}`)
        return {}
      }
    }),
    endpoint({
      path: 'admin/groups/add',
      summary: 'Adds hosts to a group',
      answer: hostGroup,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: membership,
      handle: ({ params: { id, hostid } }) => {
        existing(id)
        requireKnownHosts(hostid)
        groups.addHosts(id, hostid)
        return existing(id)
      }
    }),
    endpoint({
      path: 'admin/groups/remove',
      summary: 'Removes hosts from a group',
      answer: hostGroup,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: membership,
      handle: ({ params: { id, hostid } }) => {
        existing(id)
        requireKnownHosts(hostid)
        groups.removeHosts(id, hostid)
        return existing(id)
      }
    })
  ]
}
