// What an administrator does to several hosts chosen in the hosts list: add them to a group (one call),
// set their status or delete them (one call per host, as the M/Monit API has it).
import { addGroupHosts, deleteHost, updateHost, type AdminHost } from './admin'
import { apiGet } from './client'

export const addHostsToGroup = (groupId: number, hostIds: readonly number[]) => addGroupHosts(groupId, [...hostIds])

/** Each host keeps everything else as stored: its record is read first. */
export async function setHostsStatus(hostIds: readonly number[], status: number): Promise<void> {
  for (const id of hostIds) {
    const h = await apiGet<AdminHost>('admin/hosts/get', { id })
    await updateHost({
      id,
      hostname: h.hostname,
      keepname: h.keepname,
      description: h.description,
      status,
      ipaddrout: h.ipaddrout,
      portout: h.portout,
      sslout: h.sslout,
      agentuser: h.agentuser,
      agentpassword: '',
      skew: h.skew
    })
  }
}

export async function deleteHosts(hostIds: readonly number[]): Promise<void> {
  for (const id of hostIds) await deleteHost(id)
}
