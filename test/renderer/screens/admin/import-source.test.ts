// The import form's source fields turned into the URL the server takes: the password percent-encoded in
// the URL (never in a field shown in clear), and each incomplete form told what it lacks.
import { describe, expect, it } from 'vitest'
import { sourceUrl, type SourceFields } from '../../../../src/renderer/screens/admin/import-source'

const fields = (patch: Partial<SourceFields>): SourceFields => ({ kind: 'sqlite', location: '', user: '', password: '', ...patch })

describe('sourceUrl', () => {
  it('takes a SQLite path as it is, with or without the sqlite: M/Monit writes', () => {
    expect(sourceUrl(fields({ location: ' /opt/mmonit/db/mmonit.db ' }))).toEqual({ url: 'sqlite:/opt/mmonit/db/mmonit.db' })
    expect(sourceUrl(fields({ location: 'sqlite:///opt/mmonit/db/mmonit.db' }))).toEqual({ url: 'sqlite:/opt/mmonit/db/mmonit.db' })
  })

  it('puts the user and an encoded password into a database server URL', () => {
    const url = sourceUrl(fields({ kind: 'mysql', location: 'db.example.net:3306/mmonit', user: 'reader', password: 'p@ss:w/rd' }))
    expect(url).toEqual({ url: 'mysql://reader:p%40ss%3Aw%2Frd@db.example.net:3306/mmonit' })
    expect(sourceUrl(fields({ kind: 'postgresql', location: 'postgresql://db:5432/mmonit', user: 'r', password: 'x' }))).toEqual({
      url: 'postgresql://r:x@db:5432/mmonit'
    })
  })

  it("reads M/Monit's API over https unless http is written", () => {
    expect(sourceUrl(fields({ kind: 'api', location: 'mmonit.example.net:8080', user: 'admin', password: 'pw' }))).toEqual({
      url: 'https://admin:pw@mmonit.example.net:8080/'
    })
    expect(sourceUrl(fields({ kind: 'api', location: 'http://10.0.0.5:8080', user: 'admin', password: 'pw' }))).toEqual({
      url: 'http://admin:pw@10.0.0.5:8080/'
    })
  })

  it('says what an incomplete source lacks', () => {
    expect(sourceUrl(fields({}))).toEqual({ problem: 'Enter the path of the database file' })
    expect(sourceUrl(fields({ kind: 'mysql', location: 'db.example.net:3306', user: 'r' }))).toEqual({
      problem: 'Name the database after the server: host:port/database'
    })
    expect(sourceUrl(fields({ kind: 'postgresql', location: 'db:5432/mmonit' }))).toEqual({ problem: 'Enter the database user' })
    expect(sourceUrl(fields({ kind: 'api', location: 'https://[bad' }))).toMatchObject({ problem: expect.stringMatching(/is no address/) })
  })
})
