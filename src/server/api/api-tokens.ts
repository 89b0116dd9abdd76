// Personal API tokens (our extension, issue 26): tokens/list|create|revoke for the caller's own, and
// admin/tokens/list|revoke for an administrator over everyone's. Creating needs a logged-in session (a
// token must not mint tokens); the token itself is in the create answer only.
import { arg } from '../../shared/api/args'
import { apiTokenList, apiTokenScopes, createdApiToken, MAX_TOKEN_DAYS, MAX_TOKEN_NAME } from '../../shared/api/api-tokens'
import { emptyAnswer } from '../../shared/api/common'
import { endpoint, type ApiEndpoint } from '../http/api'
import { actorOf, detailOf } from './audit'
import type { ApiDeps } from './deps'

export function apiTokenEndpoints({ apiTokens, store }: ApiDeps): ApiEndpoint[] {
  const revoked = (id: number) => ({ action: 'token.revoke', target: `token ${id}` })
  return [
    endpoint({
      path: 'tokens/list',
      summary: "The caller's API tokens (never the tokens themselves)",
      extension: true,
      answer: apiTokenList,
      methods: ['GET', 'POST'],
      params: {},
      handle: ({ principal }) => ({ tokens: apiTokens.list(principal.userId) })
    }),
    endpoint({
      path: 'tokens/create',
      asUser: true,
      summary: 'Makes an API token for the caller: shown in this answer only',
      extension: true,
      answer: createdApiToken,
      methods: ['POST'],
      mutation: true,
      needsSession: true,
      params: {
        name: arg.required(MAX_TOKEN_NAME),
        scope: arg.oneOf(apiTokenScopes),
        expires: arg.intIn(1, MAX_TOKEN_DAYS, `days from 1 to ${MAX_TOKEN_DAYS}; absent: never`).optional()
      },
      handle: (ctx) => {
        const { params, principal } = ctx
        // What the token is for, never the token.
        const what = (t: { id: number }) => ({
          action: 'token.create',
          target: `token ${t.id} ${params.name}`,
          detail: detailOf({ scope: params.scope, expires: params.expires })
        })
        return store.auditLog.recording(actorOf(ctx), what, () =>
          apiTokens.create(principal.userId, { name: params.name, scope: params.scope, expiresInDays: params.expires })
        )
      }
    }),
    endpoint({
      path: 'tokens/revoke',
      summary: "Revokes one of the caller's API tokens, at once",
      extension: true,
      answer: emptyAnswer,
      methods: ['POST'],
      mutation: true,
      params: { id: arg.int() },
      handle: (ctx) => {
        store.auditLog.recording(actorOf(ctx), revoked(ctx.params.id), () => apiTokens.revoke(ctx.params.id, ctx.principal, false))
        return {}
      }
    }),
    endpoint({
      path: 'admin/tokens/list',
      summary: "Every user's API tokens, or one user's (userid)",
      extension: true,
      access: 'admin',
      answer: apiTokenList,
      methods: ['GET', 'POST'],
      params: { userid: arg.int().optional() },
      handle: ({ params }) => ({ tokens: apiTokens.list(params.userid) })
    }),
    endpoint({
      path: 'admin/tokens/revoke',
      summary: "Revokes any user's API token, at once",
      extension: true,
      access: 'admin',
      answer: emptyAnswer,
      methods: ['POST'],
      mutation: true,
      params: { id: arg.int() },
      handle: (ctx) => {
        store.auditLog.recording(actorOf(ctx), revoked(ctx.params.id), () => apiTokens.revoke(ctx.params.id, ctx.principal, true))
        return {}
      }
    })
  ]
}
