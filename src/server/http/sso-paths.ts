// The single sign-on routes' paths (sso-login.ts), apart so that the login page links them without the
// OpenID Connect client.
export const SSO_LOGIN_PATH = '/auth/oidc/login'
export const SSO_CALLBACK_PATH = '/auth/oidc/callback'
