// Every channel type, one module each (issue 13): add a module and list it here.
import type { ChannelType } from '../channel'
import { discord } from './discord'
import { emailChannel } from './email'
import { gotify } from './gotify'
import { jabber } from './jabber'
import { ntfy } from './ntfy'
import { programChannel } from './program'
import { slack } from './slack'
import { telegram } from './telegram'
import { webhook } from './webhook'

export const channelTypes: readonly ChannelType<any>[] = [emailChannel, webhook, slack, discord, ntfy, gotify, telegram, programChannel, jabber]

export function channelType(type: string): ChannelType<any> | undefined {
  return channelTypes.find((c) => c.type === type)
}
