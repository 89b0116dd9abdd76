// admin/groups/list|create|update|delete|add|remove (spec: Admin host groups; compat 6.9). Mutations
// answer with the affected group, as compat 6.9 recommends, plus the members their agent declares (Monit
// 5.34+ `with hostgroups`), which admin/groups/declared (ours) lists for every group: the list keeps
// M/Monit's exact shape.
import { z } from 'zod'
import { endpoint, type ApiEndpoint } from '../http/api'
import { HttpError } from '../http/errors'
import { arg } from '../../shared/api/args'
import { groupNameRule } from '../../shared/api/groups'
import type { HostGroup } from '../store/groups'
import type { ChangedHostGroup } from '../../shared/api/groups'
import { actorOf, detailOf } from './audit'
import type { ApiDeps } from './deps'
import { changedHostGroup, declaredMembersAnswer, groupListAnswer } from '../../shared/api/groups'
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
  const changed = (id: number): ChangedHostGroup => ({ ...existing(id), declared: groups.declaredHosts(id) })
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
      pureRead: true,
      summary: 'Every host group, and every host to choose members from',
      answer: groupListAnswer,
      methods: ['GET', 'POST'],
      access: 'admin',
      params: {},
      handle: () => ({ hosts: groups.hostNames(), groups: groups.list() })
    }),
    endpoint({
      path: 'admin/groups/declared',
      summary: 'Members of each group that their agent declares (Monit 5.34+ with hostgroups)',
      answer: declaredMembersAnswer,
      methods: ['GET', 'POST'],
      access: 'admin',
      extension: true,
      params: {},
      handle: () => ({ groups: groups.declaredMembers() })
    }),
    endpoint({
      path: 'admin/groups/create',
      summary: 'Creates a host group',
      answer: changedHostGroup,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { name: groupName },
      handle: (ctx) => {
        const { name } = ctx.params
        requireFreeName(name)
        const log = (id: number) => ({ action: 'group.create', target: `group ${id} ${name}` })
        return changed(store.auditLog.recording(actorOf(ctx), log, () => groups.create(name)))
      }
    }),
    endpoint({
      path: 'admin/groups/update',
      summary: 'Renames a host group',
      answer: changedHostGroup,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: { id: arg.int(), name: groupName },
      handle: (ctx) => {
        const { id, name } = ctx.params
        const before = existing(id)
        requireFreeName(name, id)
        const what = { action: 'group.update', target: `group ${id} ${name}`, detail: detailOf({ oldname: before.name }) }
        store.auditLog.recording(actorOf(ctx), what, () => groups.rename(id, name))
        return changed(id)
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
      handle: (ctx) => {
        const { id } = ctx.params
        const what = { action: 'group.delete', target: `group ${id} ${groups.list().find((g) => g.id === id)?.name ?? ''}` }
        store.auditLog.recording(actorOf(ctx), what, () => {
          if (!groups.delete(id)) throw new HttpError(404, `no host group with id ${id}`)
        })
        return {}
      }
    }),
    endpoint({
      path: 'admin/groups/add',
      summary: 'Adds hosts to a group',
      answer: changedHostGroup,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: membership,
      handle: (ctx) => {
        const { id, hostid } = ctx.params
        const group = existing(id)
        requireKnownHosts(hostid)
        const what = { action: 'group.add', target: `group ${id} ${group.name}`, detail: detailOf({ hosts: hostid }) }
        store.auditLog.recording(actorOf(ctx), what, () => groups.addHosts(id, hostid))
        return changed(id)
      }
    }),
    endpoint({
      path: 'admin/groups/remove',
      summary: 'Removes hosts from a group',
      answer: changedHostGroup,
      methods: ['POST'],
      access: 'admin',
      mutation: true,
      params: membership,
      handle: (ctx) => {
        const { id, hostid } = ctx.params
        const group = existing(id)
        requireKnownHosts(hostid)
        // Removed here, it would be back with the agent's next message: only its control file can end it.
        const declared = groups.declaredHosts(id).filter((host) => hostid.includes(host))
        if (declared.length > 0) {
          const which = declared.length === 1 ? `host ${declared[0]} is` : `hosts ${declared.join(', ')} are`
          throw new HttpError(
            409,
            `${which} in '${group.name}' because the agent declares it (set mmonit … with hostgroups): remove the group from the agent's control file`
          )
        }
        const what = { action: 'group.remove', target: `group ${id} ${group.name}`, detail: detailOf({ hosts: hostid }) }
        store.auditLog.recording(actorOf(ctx), what, () => groups.removeHosts(id, hostid))
        return changed(id)
      }
    })
  ]
}
