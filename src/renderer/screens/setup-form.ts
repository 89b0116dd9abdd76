// The setup wizard's form: the shared request rules (shared/api/setup.ts) plus the repeated password,
// checked in the browser so that every invalid field shows at once, with its reason, before anything
// is sent.
import { schemaResolver, useForm } from '@mantine/form'
import { z } from 'zod'
import { setupRequest } from '../../shared/api/setup'
import { randomPassword } from '../components/random-password'

const setupForm = z
  .intersection(setupRequest, z.object({ confirm: z.string() }))
  .refine((v) => v.confirm === v.adminpassword, { path: ['confirm'], message: 'the two passwords differ' })

export type SetupValues = z.input<typeof setupForm> & { adminfullname: string }

/** The fields of the first step, checked before the second opens. */
export const ADMIN_FIELDS = ['adminuname', 'adminfullname', 'adminpassword', 'confirm'] as const

export function useSetupForm() {
  return useForm<SetupValues>({
    mode: 'controlled',
    initialValues: {
      adminuname: 'admin',
      adminfullname: '',
      adminpassword: '',
      confirm: '',
      collectoruname: 'monit',
      collectorpassword: randomPassword()
    },
    validate: schemaResolver(setupForm, { sync: true })
  })
}
