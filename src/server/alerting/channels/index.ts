// Every channel type, one module each (issue 13): add a module and list it here.
import type { ChannelType } from '../channel'
import { webhook } from './webhook'

export const channelTypes: readonly ChannelType<any>[] = [webhook]

export function channelType(type: string): ChannelType<any> | undefined {
  return channelTypes.find((c) => c.type === type)
}
