// The server's log (pino): the text line every existing reader expects, JSON on request, levels, the
// stdout/stderr split, and no credentials or bodies even when a record carries them.
import { describe, expect, it } from 'vitest'
import { capturedLog } from '../support/captured-log'

const ISO = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z'

describe('the server log', () => {
  it('writes "<time> <LEVEL> <message>" lines: info on stdout, warnings and errors on stderr', () => {
    const { log, out, err } = capturedLog()
    log.info('listening on http://127.0.0.1:8080')
    log.warn('alert delivery: given up')
    log.error('storage: writing the database failed')
    expect(out()).toEqual([expect.stringMatching(new RegExp(`^${ISO} INFO  listening on http://127\\.0\\.0\\.1:8080$`))])
    expect(err()).toEqual([
      expect.stringMatching(new RegExp(`^${ISO} WARN  alert delivery: given up$`)),
      expect.stringMatching(new RegExp(`^${ISO} ERROR storage: writing the database failed$`))
    ])
  })

  it('leaves out what is below its level', () => {
    const quiet = capturedLog({ level: 'warn' })
    quiet.log.info('not shown')
    quiet.log.warn('shown')
    expect([...quiet.out(), ...quiet.err()]).toEqual([expect.stringContaining('WARN  shown')])
    const verbose = capturedLog({ level: 'debug' })
    verbose.log.debug('details')
    verbose.log.trace('more details')
    expect(verbose.out()).toEqual([expect.stringContaining('DEBUG details')])
  })

  it('writes one JSON object per line with --log-format json', () => {
    const { log, out, err } = capturedLog({ format: 'json' })
    log.info('listening on http://127.0.0.1:8080')
    log.error('failed')
    expect(out().map((l) => JSON.parse(l))).toEqual([
      { level: 'info', time: expect.stringMatching(new RegExp(`^${ISO}$`)), msg: 'listening on http://127.0.0.1:8080' }
    ])
    expect(JSON.parse(err()[0])).toMatchObject({ level: 'error', msg: 'failed' })
  })

  it("puts an error's stack after the message in a text line", () => {
    const { log, err } = capturedLog()
    log.error({ err: new TypeError('a bug') }, 'request failed')
    expect(err().join('\n')).toMatch(new RegExp(`^${ISO} ERROR request failed: TypeError: a bug\\n {4}at `))
  })

  it('never writes credentials or bodies, even when a record carries them', () => {
    for (const format of ['text', 'json'] as const) {
      const { log, out } = capturedLog({ format })
      log.info(
        {
          password: 'pw-1',
          body: 'body-2',
          headers: { authorization: 'Basic YWRtaW46c2VjcmV0', cookie: 'zsessionid=s3', 'set-cookie': 'zsessionid=s4' },
          req: { headers: { authorization: 'Bearer t5', cookie: 'c6' }, body: { password: 'pw-7' } }
        },
        'request'
      )
      expect(out()).toHaveLength(1)
      expect(out()[0]).not.toMatch(/pw-1|body-2|YWRtaW46c2VjcmV0|s3|s4|t5|c6|pw-7/)
    }
    const { log, out } = capturedLog({ format: 'json' })
    log.info({ headers: { authorization: 'Basic x' } }, 'request')
    expect(JSON.parse(out()[0]).headers).toEqual({ authorization: '[redacted]' })
  })
})
