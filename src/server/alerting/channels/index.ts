// Every channel type, one module each (issue 13): add a module and list it here.
import type { ChannelType } from '../channel'
import { desktopChannel } from './desktop'
import { discord } from './discord'
import { emailChannel } from './email'
import { gotify } from './gotify'
import { jabber } from './jabber'
import { ntfy } from './ntfy'
import { programChannel } from './program'
import { slack } from './slack'
import { telegram } from './telegram'
import { webhook } from './webhook'

export const channelTypes: readonly ChannelType[] = [
  emailChannel,
  webhook,
  slack,
  discord,
  ntfy,
  gotify,
  telegram,
  programChannel,
  jabber,
  desktopChannel
]

/** `registry`: tests of the API register types of their own. */
export function channelType(type: string, registry: readonly ChannelType[] = channelTypes): ChannelType | undefined {
  return registry.find((c) => c.type === type)
}
