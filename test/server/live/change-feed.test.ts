import { describe, expect, it } from 'vitest'
import { ChangeFeed } from '../../../src/server/live/change-feed'
import type { LiveEnvelope } from '../../../src/shared/live'

const removed = (hostId: number) => ({ kind: 'host-removed' as const, hostId })

describe('change feed', () => {
  it('forwards what is published here to the other instances, and not what they sent', () => {
    const feed = new ChangeFeed(4, 1)
    const forwarded: unknown[] = []
    const seen: LiveEnvelope[] = []
    feed.forwardTo((changes) => forwarded.push(changes))
    feed.subscribe((e) => seen.push(e))
    feed.publish(removed(1))
    feed.publishAll([removed(2), removed(3)])
    feed.receive([removed(4)])
    expect(forwarded).toEqual([[removed(1)], [removed(2), removed(3)]])
    expect(seen.map((e) => [e.id, e.change])).toEqual([1, 2, 3, 4].map((h) => [h, removed(h)]))
  })

  it('gives increasing ids and delivers to subscribers until they unsubscribe', () => {
    const feed = new ChangeFeed(4, 100)
    const seen: LiveEnvelope[] = []
    const unsubscribe = feed.subscribe((e) => seen.push(e))
    feed.publishAll([removed(1), removed(2)])
    unsubscribe()
    feed.publish(removed(3))
    expect(seen.map((e) => e.id)).toEqual([100, 101])
    expect(feed.lastId).toBe(102)
  })

  it('replays what came after an id while the ring still holds it, else says so', () => {
    const feed = new ChangeFeed(4, 1)
    expect(feed.since(0)).toEqual([])
    for (let h = 1; h <= 6; h++) feed.publish(removed(h))
    expect(feed.since(4)?.map((e) => e.id)).toEqual([5, 6])
    expect(feed.since(2)?.map((e) => e.id)).toEqual([3, 4, 5, 6])
    expect(feed.since(6)).toEqual([])
    expect(feed.since(1)).toBeUndefined() // 2 fell out of the ring
    expect(feed.since(7)).toBeUndefined() // from another process
  })

  it('drops a subscriber that throws, and keeps publishing to the others', () => {
    const feed = new ChangeFeed()
    let calls = 0
    feed.subscribe(() => {
      throw new Error('broken')
    })
    feed.subscribe(() => {
      calls++
    })
    feed.publish(removed(1))
    feed.publish(removed(2))
    expect(calls).toBe(2)
    expect(feed.subscribers).toBe(1)
  })
})
