// The "Add agent" form's own checks (issue 30 §1): they refuse what admin/pulled/create refuses (the URL's
// scheme, credentials or a path in it, the poll bounds) before anything is sent, and let through what it takes.
import { PULLED_CREDENTIAL_MAX, PULLED_URL_MAX } from '../../../../src/shared/api/pulled-agents'
import { describe, expect, it } from 'vitest'
import { DEFAULT_PULL_POLL_SEC, PULL_POLL_LIMITS } from '../../../../src/shared/api/pulled-agents'
import {
  emptyPulledAgentFields,
  newPulledAgent,
  pollProblem,
  pulledAgentProblems,
  urlProblem,
  type PulledAgentFields
} from '../../../../src/renderer/screens/admin/pulled-agents-form'
import { isHttps, pollState, shortFingerprint } from '../../../../src/renderer/screens/admin/pulled-agents-format'

const fields = (patch: Partial<PulledAgentFields>): PulledAgentFields => ({ ...emptyPulledAgentFields(), ...patch })

describe('urlProblem', () => {
  it('takes an http or https address with a host and an optional port', () => {
    for (const url of [
      'http://10.0.0.5:2812',
      'https://10.0.0.5:2812',
      'https://10.0.0.5',
      'http://agent.example.net:2812/',
      'HTTPS://Agent.Example.NET',
      'http://[2001:db8::5]:2812',
      '  http://127.0.0.1:2812  '
    ])
      expect(urlProblem(url), url).toBeUndefined()
  })

  it('asks for a URL when there is none', () => {
    expect(urlProblem('')).toMatch(/Enter the agent's httpd address/)
    expect(urlProblem('   ')).toMatch(/Enter/)
  })

  it('wants the scheme written, http or https', () => {
    for (const url of ['10.0.0.5:2812', 'agent:2812', 'agent.example.net', 'ftp://10.0.0.5', 'file:///etc/monitrc', '//10.0.0.5:2812'])
      expect(urlProblem(url), url).toMatch(/Start with http:\/\/ or https:\/\//)
  })

  it('refuses what is no URL: a bad port, a space in the host, no host', () => {
    for (const url of ['http://10.0.0.5:99999', 'http://exa mple:2812', 'http://', 'https://:2812'])
      expect(urlProblem(url), url).toMatch(/Not a URL/)
  })

  it('keeps the credentials out of the URL', () => {
    expect(urlProblem('http://admin:monit@10.0.0.5:2812')).toMatch(/credentials as user and password/)
    expect(urlProblem('https://admin@10.0.0.5')).toMatch(/credentials/)
  })

  it('takes the address only, without a path, a query or a fragment', () => {
    for (const url of ['http://10.0.0.5:2812/_status', 'http://10.0.0.5:2812/?format=xml', 'http://10.0.0.5:2812/#x', 'http://10.0.0.5//'])
      expect(urlProblem(url), url).toMatch(/without a path/)
  })

  it(`takes at most ${PULLED_URL_MAX} characters, as the server`, () => {
    const host = `${'a'.repeat(60)}.`.repeat(5)
    expect(urlProblem(`http://${host}`.slice(0, PULLED_URL_MAX))).toBeUndefined()
    expect(urlProblem(`http://${host}${'b'.repeat(PULLED_URL_MAX)}`)).toMatch(/At most 300/)
  })
})

describe('pollProblem', () => {
  it(`takes whole seconds from ${PULL_POLL_LIMITS.min} to ${PULL_POLL_LIMITS.max}`, () => {
    for (const poll of [PULL_POLL_LIMITS.min, DEFAULT_PULL_POLL_SEC, PULL_POLL_LIMITS.max, '2', ' 60 '])
      expect(pollProblem(poll)).toBeUndefined()
  })

  it('refuses the rest, and an emptied input', () => {
    for (const poll of [PULL_POLL_LIMITS.min - 1, PULL_POLL_LIMITS.max + 1, 0, -5, 2.5, '', '  ', 'ten', NaN])
      expect(pollProblem(poll), String(poll)).toBe(`Whole seconds from ${PULL_POLL_LIMITS.min} to ${PULL_POLL_LIMITS.max}`)
  })
})

describe('pulledAgentProblems', () => {
  it('starts from the default poll interval, and asks for the URL alone', () => {
    expect(emptyPulledAgentFields().poll).toBe(DEFAULT_PULL_POLL_SEC)
    expect(Object.keys(pulledAgentProblems(emptyPulledAgentFields()))).toEqual(['url'])
  })

  it('has nothing to say about a good form; user and password may stay empty (an httpd allowing the address)', () => {
    expect(pulledAgentProblems(fields({ url: 'http://10.0.0.5:2812', username: 'admin', password: 'monit', poll: 2 }))).toEqual({})
    expect(pulledAgentProblems(fields({ url: 'http://10.0.0.5:2812' }))).toEqual({})
  })

  it('names each field at fault', () => {
    const problems = pulledAgentProblems(
      fields({
        url: 'http://u:p@h',
        username: 'u'.repeat(PULLED_CREDENTIAL_MAX + 1),
        password: 'p'.repeat(PULLED_CREDENTIAL_MAX + 1),
        poll: 1
      })
    )
    expect(Object.keys(problems).sort()).toEqual(['password', 'poll', 'url', 'username'])
    expect(pulledAgentProblems(fields({ url: 'http://h', username: 'u'.repeat(PULLED_CREDENTIAL_MAX) }))).toEqual({})
  })

  it('sends the URL and user trimmed, the password as typed, the poll as a number', () => {
    expect(newPulledAgent(fields({ url: ' https://10.0.0.5:2812 ', username: ' admin ', password: ' pw ', poll: '15' }))).toEqual({
      url: 'https://10.0.0.5:2812',
      username: 'admin',
      password: ' pw ',
      poll: 15
    })
  })
})

describe('a pulled agent row', () => {
  const sha = 'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89'

  it('shortens a certificate fingerprint to its ends', () => {
    expect(shortFingerprint(sha)).toBe('AB:CD:EF:01…67:89')
    expect(shortFingerprint('')).toBe('')
  })

  it('tells https agents', () => {
    expect(isHttps({ url: 'https://10.0.0.5:2812' })).toBe(true)
    expect(isHttps({ url: 'http://10.0.0.5:2812' })).toBe(false)
  })

  it('reads the last poll: none yet, answered, or its error', () => {
    expect(pollState({ error: null, polledat: null })).toEqual({ kind: 'waiting' })
    expect(pollState({ error: null, polledat: 1795300000 })).toEqual({ kind: 'ok' })
    expect(pollState({ error: 'bad credentials', polledat: 1795300000 })).toEqual({ kind: 'failing', error: 'bad credentials' })
  })
})
