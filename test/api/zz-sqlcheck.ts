import { createQueryBuilder, SqlRunner } from '/work/main/src/server/store/sql'
import { StatusRepository } from '/work/main/src/server/store/status'
import { openDatabase } from '/work/main/src/server/store/database'
const { sqlite } = openDatabase(':memory:')
const runner = new SqlRunner(sqlite)
const orig = runner.all.bind(runner)
runner.all = ((q: any) => { console.log(q.compile().sql, q.compile().parameters); console.log(sqlite.prepare('EXPLAIN QUERY PLAN ' + q.compile().sql).all(...q.compile().parameters)); return orig(q) }) as any
const repo = new StatusRepository(createQueryBuilder(), runner)
console.log(repo.hostPage({ visible: [1,2], hostIds: [1], groupIds: [3], pattern: 'a_b', leds: [0], statusIds: [0], platform: 'linux', machine: 'x' }, 'cpu', 'desc', 0, 10))
console.log(repo.hostPage({}, 'led', 'asc', 0, 10))
console.log(repo.hostConditions({}))
console.log(repo.countHosts({ groupIds: [1] }))
