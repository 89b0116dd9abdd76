// The webhook channel at its smallest (issue 13): the notification POSTed as JSON, its id also in a
// header, any 2xx delivered. Stands in on this branch for the HTTP channels' full module (custom
// headers, HMAC signature), which replaces it.
import { z } from 'zod'
import type { ChannelType } from '../channel'

const settings = z.object({ url: z.string().url() })

export const webhook: ChannelType<z.infer<typeof settings>> = {
  type: 'webhook',
  settings,
  secretFields: [],
  async send({ url }, notification, _message, { signal }) {
    const res = await fetch(url, {
      method: 'POST', signal, body: JSON.stringify(notification),
      headers: { 'Content-Type': 'application/json', 'X-Overseer-Notification': notification.id }
    })
    const text = (await res.text()).slice(0, 1000)
    return res.ok ? { ok: true, log: `${res.status} ${text}` } : { ok: false, error: `HTTP ${res.status}: ${text}` }
  }
}
