// The OpenID Connect relying party (issue 30 §2): the authorization code flow with PKCE against the
// configured provider, through openid-client, which checks the ID token (signature, issuer, audience,
// expiry, nonce) and the state. The provider's metadata is discovered at the first login and again after a
// failed discovery. Plain http is allowed for a provider on loopback only (tests, a provider beside the server).
import * as client from 'openid-client'
import { groupsOf, type OidcIdentity, type OidcSettings } from '../domain/single-sign-on'

/** What a login started and its callback must show again: kept in the browser's session. */
export interface PendingLogin {
  state: string
  nonce: string
  verifier: string
  /** Unix seconds: a callback later than PENDING_LOGIN_SEC after this is refused. */
  startedAt: number
}

export const PENDING_LOGIN_SEC = 600
const PROVIDER_TIMEOUT_SEC = 10

export class OidcClient {
  private configuration: Promise<client.Configuration> | undefined

  constructor(
    readonly settings: OidcSettings,
    /** Where the provider sends the browser back: this server's /auth/oidc/callback as the provider has it registered (known once it listens). */
    private readonly redirect: () => string
  ) {}

  get redirectUri(): string {
    return this.redirect()
  }

  /** Where to send the browser to log in, and what its callback must show. */
  async start(nowSec: number): Promise<{ url: string; pending: PendingLogin }> {
    const config = await this.config()
    const pending: PendingLogin = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      startedAt: nowSec
    }
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: 'openid profile email',
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce
    })
    return { url: url.href, pending }
  }

  /** The provider's user of a callback (its URL as the browser requested it); throws when anything does not check out. */
  async finish(callbackUrl: URL, pending: PendingLogin): Promise<OidcIdentity> {
    const config = await this.config()
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true
    })
    const idClaims = tokens.claims()!
    // Groups and e-mail are often in userinfo only; the ID token's subject must match it.
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)
    const claims: Record<string, unknown> = { ...userinfo, ...idClaims }
    const text = (name: string) => (typeof claims[name] === 'string' && claims[name] !== '' ? (claims[name] as string) : undefined)
    return {
      issuer: idClaims.iss,
      subject: idClaims.sub,
      username: text('preferred_username'),
      email: text('email'),
      emailVerified: claims.email_verified === true,
      name: text('name'),
      groups: groupsOf(claims, this.settings.groupsClaim)
    }
  }

  private config(): Promise<client.Configuration> {
    this.configuration ??= discover(this.settings).catch((err: unknown) => {
      this.configuration = undefined
      throw err
    })
    return this.configuration
  }
}

function discover(s: OidcSettings): Promise<client.Configuration> {
  const issuer = new URL(s.issuer)
  return client.discovery(issuer, s.clientId, s.clientSecret, undefined, {
    timeout: PROVIDER_TIMEOUT_SEC,
    execute: issuer.protocol === 'http:' ? [client.allowInsecureRequests] : []
  })
}
