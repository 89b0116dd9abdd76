// A host group's name as the server checks it (admin/groups/create|update), shared with the console's
// group forms.
import { z } from 'zod'

export const groupNameRule = z.string().trim().min(1, 'must not be empty').max(255, 'longer than 255 characters')
export const groupFormRules = z.object({ name: groupNameRule })
