// The contract of admin/groups/*, and the rule for a group's name, shared by the server and the console
// (whose group forms check it before sending).
import { z } from 'zod'

export const hostGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  hosts: z.array(z.number().int()).describe('Member host ids, ascending')
})
export type HostGroup = z.infer<typeof hostGroup>

export const groupListAnswer = z.object({
  hosts: z.array(z.object({ id: z.number().int(), name: z.string() })).describe('Every host, by name, to choose members from'),
  groups: z.array(hostGroup)
})
export type GroupList = z.infer<typeof groupListAnswer>

export const groupNameRule = z.string().trim().min(1, 'must not be empty').max(255, 'longer than 255 characters')
export const groupFormRules = z.object({ name: groupNameRule })
