// The contract of admin/groups/*, and the rule for a group's name, shared by the server and the console
// (whose group forms check it before sending).
import { z } from 'zod'

export const hostGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  hosts: z.array(z.number().int()).describe('Member host ids, ascending')
})
export type HostGroup = z.infer<typeof hostGroup>

/**
 * The answer to a change (compat 6.9 leaves it open): the group, and which of its members their agent
 * declares (Monit 5.34+ `with hostgroups`): those an administrator cannot remove.
 */
export const changedHostGroup = hostGroup.extend({
  declared: z.array(z.number().int()).describe('Member host ids whose agent declares this group (Monit 5.34+), ascending')
})
export type ChangedHostGroup = z.infer<typeof changedHostGroup>

/** admin/groups/declared (ours): the list's shape is M/Monit's own (compat 6.9), so the marker has its own read. */
export const declaredMembersAnswer = z.object({
  groups: z
    .array(z.object({ id: z.number().int(), hosts: z.array(z.number().int()).describe('Member host ids, ascending') }))
    .describe('Each group with members their agent declares (Monit 5.34+ `with hostgroups`), and those members')
})
export type DeclaredMembersAnswer = z.infer<typeof declaredMembersAnswer>

export const groupListAnswer = z.object({
  hosts: z.array(z.object({ id: z.number().int(), name: z.string() })).describe('Every host, by name, to choose members from'),
  groups: z.array(hostGroup)
})
export type GroupList = z.infer<typeof groupListAnswer>

export const groupNameRule = z.string().trim().min(1, 'must not be empty').max(255, 'longer than 255 characters')
export const groupFormRules = z.object({ name: groupNameRule })
