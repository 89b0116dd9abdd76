import { describe, expect, it } from 'vitest'
import { StatisticPass, StatisticSlots } from '../../../src/server/collector/statistic-slots'
import { statisticKey } from '../../../src/server/store/latest-statistics'

describe('StatisticSlots', () => {
  it('finds a statistic at its usual position, elsewhere, or not at all', () => {
    const slots = new StatisticSlots()
    const cpu = slots.add(statisticKey(1, ''), 101)
    const disk = slots.add(statisticKey(2, '/var'), 102)
    expect(slots.find(statisticKey(2, '/var'), 1)).toBe(disk)
    expect(slots.find(statisticKey(1, ''), 1)).toBe(cpu)
    expect(slots.find(statisticKey(2, '/var'), 7)).toBe(disk)
    expect(slots.find(statisticKey(2, '/tmp'), 1)).toBe(-1)
    expect(slots.id(disk)).toBe(102)
  })

  it('keeps finding every statistic of a service with many, added before and after the lookup index is built', () => {
    const slots = new StatisticSlots()
    for (let i = 0; i < 40; i++) slots.add(statisticKey(3, `/disk${i}`), 1000 + i)
    for (let i = 0; i < 40; i++) expect(slots.id(slots.find(statisticKey(3, `/disk${i}`), 0))).toBe(1000 + i)
    expect(slots.find(statisticKey(3, '/disk40'), 0)).toBe(-1)
    const keys = Array.from({ length: 100 }, (_, i) => statisticKey(3, `/mnt${i}`))
    const many = new StatisticSlots(
      keys,
      keys.map((_, i) => 2000 + i)
    )
    expect(keys.map((k) => many.id(many.find(k, 0)))).toEqual(keys.map((_, i) => 2000 + i))
    // The same key under another type is another statistic.
    expect(slots.find(statisticKey(4, '/disk1'), 1)).toBe(-1)
  })

  it('lets two services with the same statistics each add one of their own without the other seeing it', () => {
    const keys = [statisticKey(1, ''), statisticKey(2, '')]
    const a = new StatisticSlots(keys, [1, 2])
    const b = new StatisticSlots(keys, [3, 4])
    expect(a.add(statisticKey(5, 'eth0'), 9)).toBe(2)
    expect(b.find(statisticKey(5, 'eth0'), 2)).toBe(-1)
    expect(new StatisticSlots(keys, [5, 6]).find(statisticKey(5, 'eth0'), 2)).toBe(-1)
    expect([a.id(a.find(statisticKey(2, ''), 0)), b.id(b.find(statisticKey(2, ''), 1))]).toEqual([2, 4])
  })
})

describe('StatisticPass', () => {
  it('takes each slot once per pass, every slot again in the next pass, slots past its scratch space too', () => {
    const pass = new StatisticPass()
    pass.begin()
    expect([pass.take(0), pass.take(1), pass.take(0), pass.take(500), pass.take(500)]).toEqual([true, true, false, true, false])
    pass.begin()
    expect([pass.take(0), pass.take(500), pass.take(1), pass.take(1)]).toEqual([true, true, true, false])
  })
})
