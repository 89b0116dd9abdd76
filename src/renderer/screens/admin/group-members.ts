// The member picker of the group editor: which hosts a group's agent-declared members are (Monit 5.34+
// `set mmonit … with hostgroups`), how they are labelled, and that the picker cannot drop them (the
// server refuses it: the agent would declare them again with its next message).

export const DECLARED_BY_THE_AGENT = 'declared by the agent'

export interface MemberOption {
  value: string
  label: string
}

/** Every host to pick from; a member its agent declares says so. */
export function memberOptions(hosts: readonly { id: number; name: string }[], declared: readonly number[]): MemberOption[] {
  return hosts.map((h) => ({ value: String(h.id), label: declared.includes(h.id) ? `${h.name} (${DECLARED_BY_THE_AGENT})` : h.name }))
}

/** The members picked, with the declared ones kept whatever was picked. */
export function keepDeclared(picked: readonly number[], declared: readonly number[]): number[] {
  return [...picked, ...declared.filter((id) => !picked.includes(id))]
}

/** The group's members that their agent declares, from admin/groups/declared; none when it has none. */
export function declaredOf(groupId: number, declared: readonly { id: number; hosts: number[] }[] | undefined): number[] {
  return declared?.find((g) => g.id === groupId)?.hosts ?? []
}
