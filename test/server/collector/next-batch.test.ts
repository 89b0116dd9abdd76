import { describe, expect, it } from 'vitest'
import { LARGE_MESSAGE_BYTES, takeBatch } from '../../../src/server/collector/next-batch'

const small = (name: string) => ({ name, bytes: 8 * 1024 })
const large = (name: string) => ({ name, bytes: LARGE_MESSAGE_BYTES + 1 })
const names = (messages: { name: string }[]) => messages.map((m) => m.name)
const take = (queue: { name: string; bytes: number }[], max: number) => names(takeBatch(queue, (m) => m.bytes, max))

describe('takeBatch', () => {
  it('takes the oldest messages, up to the batch size, and leaves the rest in order', () => {
    const queue = [small('a'), small('b'), small('c'), small('d')]
    expect(take(queue, 3)).toEqual(['a', 'b', 'c'])
    expect(names(queue)).toEqual(['d'])
  })

  it('takes at most one large message: the small ones behind a row of large ones are not kept waiting', () => {
    const queue = [large('L1'), large('L2'), large('L3'), small('heartbeat'), large('L4')]
    expect(take(queue, 16)).toEqual(['L1', 'heartbeat'])
    expect(names(queue)).toEqual(['L2', 'L3', 'L4'])
    expect(take(queue, 16)).toEqual(['L2'])
    expect(names(queue)).toEqual(['L3', 'L4'])
  })

  it('counts a message of exactly LARGE_MESSAGE_BYTES as small', () => {
    const queue = [
      { name: 'x', bytes: LARGE_MESSAGE_BYTES },
      { name: 'y', bytes: LARGE_MESSAGE_BYTES }
    ]
    expect(take(queue, 16)).toEqual(['x', 'y'])
  })
})
