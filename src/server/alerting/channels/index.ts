// Every channel type, one module each (issue 13): add a module and list it here.
import type { ChannelType } from '../channel'
import { jabber } from './jabber'

export const channelTypes: readonly ChannelType<any>[] = [jabber]

export function channelType(type: string): ChannelType<any> | undefined {
  return channelTypes.find((c) => c.type === type)
}
