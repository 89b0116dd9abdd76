// The console's per-type channel forms against the server's channel types: every type the server
// registers has a form whose fields are exactly its settings (named as the API names them), secrets are
// the write-only inputs, and the form's values go back as the arguments the API reads.
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { channelTypes } from '../../../../src/server/alerting/channels'
import { CHANNEL_TYPES, channelTypeForm } from '../../../../src/renderer/screens/alerts/channel-types'
import { fieldValues, settingsArguments } from '../../../../src/renderer/screens/alerts/channel-values'
import type { AlertChannelRecord } from '../../../../src/shared/api/alerts'

interface ZodInternals {
  _zod: { def: { shape?: Record<string, z.ZodType>; in?: z.ZodType; innerType?: z.ZodType } }
}

/** The fields of a settings schema: an object, possibly refined, transformed or wrapped. */
function fieldsOf(schema: z.ZodType): string[] {
  const def = (schema as unknown as ZodInternals)._zod.def
  if (def.shape) return Object.keys(def.shape)
  const inner = def.in ?? def.innerType
  return inner ? fieldsOf(inner) : []
}

describe('channel forms', () => {
  for (const type of channelTypes) {
    it(`${type.type}: one input per setting, secrets write-only`, () => {
      const form = CHANNEL_TYPES.find((t) => t.type === type.type)
      expect(form, `no form for the server's type ${type.type}`).toBeDefined()
      expect(form!.fields.map((f) => f.name).sort()).toEqual(fieldsOf(type.settings).sort())
      expect(
        form!.fields
          .filter((f) => f.kind === 'secret')
          .map((f) => f.name)
          .sort()
      ).toEqual([...type.secretFields].sort())
    })
  }

  it('a type without an entry still gets a form (name and switch only)', () => {
    expect(channelTypeForm('pager')).toMatchObject({ type: 'pager', label: 'pager', fields: [] })
  })
})

describe('channel form values', () => {
  const webhook = channelTypeForm('webhook')
  const stored: AlertChannelRecord = {
    id: 1,
    name: 'hook',
    type: 'webhook',
    enabled: true,
    subject: null,
    body: null,
    createdat: 0,
    settings: { url: 'https://example.org/h', header: ['X-A: 1', 'X-B: 2'] },
    secrets: { secret: true }
  }

  it('shows a stored channel: lists one per line, the secret empty', () => {
    expect(fieldValues(webhook, stored)).toEqual({ url: 'https://example.org/h', header: 'X-A: 1\nX-B: 2', secret: '' })
  })

  it('sends lists repeated, an emptied list or text as one empty value, an empty secret as empty (kept)', () => {
    expect(settingsArguments(webhook, { url: ' https://example.org/h ', header: 'X-A: 1\n\n X-C: 3 ', secret: '' })).toEqual({
      url: ['https://example.org/h'],
      header: ['X-A: 1', 'X-C: 3'],
      secret: ''
    })
    expect(settingsArguments(webhook, { url: '', header: '', secret: 'new' })).toEqual({ url: [''], header: [''], secret: 'new' })
  })

  it('starts a new e-mail channel from the defaults, users as ids and switches as booleans', () => {
    const email = channelTypeForm('email')
    const values = fieldValues(email)
    expect(values).toMatchObject({ smtpsecurity: 'starttls', smtptlsverify: true, userid: [], to: '' })
    expect(settingsArguments(email, { ...values, userid: ['3', '5'], smtptlsverify: false })).toMatchObject({
      userid: ['3', '5'],
      smtptlsverify: false,
      to: ['']
    })
  })
})
