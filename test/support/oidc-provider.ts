// A real OpenID Connect provider on loopback for the single sign-on tests (issue 30 §2): the npm registry's
// `oidc-provider`, with one confidential client and a few accounts. Its login screen is replaced by the
// test's choice (`signInAs`): the next authorization logs that account in and consents, or, for an account
// marked disabled, is refused as a provider refuses a disabled user (access_denied). It sits behind a
// proxy of the test's own, which can forge the ID token the token endpoint answers (its signature
// broken), answer an earlier login's token response again (a replay), or sign an expired one with the
// provider's own key.
import { generateKeyPairSync, sign } from 'node:crypto'
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

export interface TestAccount {
  sub: string
  preferred_username: string
  name: string
  email: string
  email_verified: boolean
  groups: string[]
  disabled?: boolean
}

export const OIDC_CLIENT = { id: 'overseer', secret: 'sso-client-secret' }

type TokenMode = 'pass' | 'forge' | 'replay' | 'expire'
const SIGNING_KEY_ID = 'test'

export interface TestProvider {
  /** The issuer URL: the proxy's. */
  issuer: string
  /** Who the next authorization logs in. */
  signInAs(account: string): void
  /**
   * How the token endpoint's next answers go through: as they are; with the ID token's claims changed under
   * its old signature (forged); an earlier login's answer again (replayed); or the ID token expired an hour
   * ago, signed with the provider's own key (everything else in it right).
   */
  tokenAnswers(mode: TokenMode): void
  close(): Promise<void>
}

/** Starts the provider for a relying party whose callback is `redirectUri`. */
export async function startTestProvider(accounts: Record<string, TestAccount>, redirectUri: string): Promise<TestProvider> {
  const inner = http.createServer()
  const proxy = http.createServer()
  proxy.listen(0, '127.0.0.1')
  inner.listen(0, '127.0.0.1')
  await Promise.all([once(proxy, 'listening'), once(inner, 'listening')])
  const issuer = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  let nextAccount = ''
  let mode: TokenMode = 'pass'
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
  let lastTokenAnswer: Buffer<ArrayBufferLike> | undefined

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code']
      }
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username', 'groups'] },
    scopes: ['openid', 'profile', 'email'],
    cookies: { keys: ['overseer-test-cookie-key'] },
    // Its own signing key (else the provider warns of its development keys).
    jwks: {
      keys: [
        {
          ...signingKey.export({ format: 'jwk' }),
          kid: SIGNING_KEY_ID,
          alg: 'RS256',
          use: 'sig'
        }
      ]
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => {
      const account = accounts[id]
      return account ? { accountId: id, claims: () => ({ ...account, disabled: undefined }) } : undefined
    }
  })
  provider.proxy = false
  const callback = provider.callback()

  inner.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return void callback(req, res)
    void interact(req, res).catch((err: unknown) => res.writeHead(500).end(String(err)))
  })
  async function interact(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res)
    const account = accounts[nextAccount]
    if (details.prompt.name === 'login') {
      if (!account || account.disabled) {
        await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the account is disabled' })
        return
      }
      await provider.interactionFinished(req, res, { login: { accountId: nextAccount } }, { mergeWithLastSubmission: false })
      return
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) })
    grant.addOIDCScope('openid profile email')
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true })
  }

  const innerPort = (inner.address() as AddressInfo).port
  proxy.on('request', (req, res) => {
    const forwarded = http.request(
      { host: '127.0.0.1', port: innerPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const isToken = req.method === 'POST' && req.url?.startsWith('/token')
        if (!isToken) {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
          return
        }
        const chunks: Buffer[] = []
        answer.on('data', (c: Buffer) => chunks.push(c))
        answer.on('end', () => {
          let body: Buffer<ArrayBufferLike> = Buffer.concat(chunks)
          if (mode === 'replay' && lastTokenAnswer) body = lastTokenAnswer
          else if (answer.statusCode === 200) lastTokenAnswer = body
          if (mode === 'forge' || mode === 'expire') {
            const json = JSON.parse(body.toString()) as { id_token: string }
            const [head, payload, signature] = json.id_token.split('.')
            const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>
            const now = Math.floor(Date.now() / 1000)
            if (mode === 'forge') {
              // Another user, signed by no one the provider knows: the old signature over new claims.
              claims.sub = 'forged-admin'
              json.id_token = [head, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.')
            } else {
              // Right in all but its time, and signed with the provider's own key.
              Object.assign(claims, { iat: now - 7200, exp: now - 3600 })
              const signed = `${head}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
              json.id_token = `${signed}.${sign('sha256', Buffer.from(signed), signingKey).toString('base64url')}`
            }
            body = Buffer.from(JSON.stringify(json))
          }
          const headers = { ...answer.headers, 'content-length': String(body.length) }
          res.writeHead(answer.statusCode ?? 502, headers)
          res.end(body)
        })
      }
    )
    req.pipe(forwarded)
  })

  return {
    issuer,
    signInAs: (account) => (nextAccount = account),
    tokenAnswers: (m) => (mode = m),
    async close() {
      proxy.closeAllConnections()
      inner.closeAllConnections()
      proxy.close()
      inner.close()
      await Promise.all([once(proxy, 'close'), once(inner, 'close')])
    }
  }
}

/** A cookie jar for one party of a login made with fetch: what it was set, sent back. */
export class CookieJar {
  private readonly cookies = new Map<string, string>()

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair.indexOf('=')
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim())
    }
  }

  async get(url: string): Promise<Response> {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: this.header() } })
    this.take(res)
    return res
  }
}
