// The OpenAPI 3.1 document of the API, generated from the endpoint table: each endpoint's arguments
// and answer are its zod schemas (src/shared/api), turned into JSON Schema by z.toJSONSchema. Every
// endpoint is listed under /api/2; the description says how /api/1 and the legacy paths differ.
import { z } from 'zod'
import { errorAnswer } from '../../shared/api/common'
import { API_PREFIXES, type ApiEndpoint, type ApiVersion, type Method } from '../http/api'

type JsonSchema = Record<string, unknown>

const DESCRIPTION = `The HTTP API of Overseer, a replacement for M/Monit: M/Monit's API (its documented endpoints, as
existing clients call them) plus Overseer's extensions, each marked \`x-overseer-extension: true\`.

## Prefixes
Every endpoint is served under three prefixes: \`/api/2\` (listed here), \`/api/1\` and the legacy
unprefixed path (e.g. \`/status/hosts/list\`). \`/api/1\` answers M/Monit 4's shapes; where they differ
from api/2 the schema marks the api/2-only fields optional (e.g. \`status/hosts/get\`'s paging fields,
\`admin/users/*\`'s \`id\` and \`roles\`). The legacy paths answer api/1's shapes plus api/2's additive fields.
A few endpoints are api/2 only (first-run setup, this document).

## Arguments
Arguments come in the query string or, for POST, as an \`application/x-www-form-urlencoded\` body; both
are merged. A list repeats its key (\`hostid=1&hostid=2\`). Numbers are decimal integers, booleans
\`true\`/\`false\` (also \`1\`/\`0\`, \`on\`/\`off\`, \`yes\`/\`no\`). Endpoints accept both GET and POST unless
an operation is listed for one method only; any other method answers 405 with \`Allow\`.

## Authentication
- **Session (M/Monit login)**: \`GET /index.csp\` sets the \`zsessionid\` cookie; \`POST /z_security_check\`
  with \`z_username\`, \`z_password\` (and \`z_csrf_protection=off\` to opt out of CSRF tokens) logs the
  session in and redirects (302); the three may also come in the query string (the body wins), and a
  script may log in by GET (refused to browsers). A session that deletes its own user goes on until it
  logs out or expires. \`GET /login/logout.csp\` or \`session/invalidate\` logs out. Without a
  logged-in session, every endpoint but the public ones answers **200 with the HTML login page**
  (\`Content-Type: text/html\`), as M/Monit does, never a JSON 401.
- **API tokens** (an Overseer extension): \`Authorization: Bearer <token>\`, a personal token made with
  \`tokens/create\` in a logged-in session, under every prefix and on \`/metrics\`; no cookie, no session
  and no CSRF token. Scope \`read\` answers 403 to every mutation; scope \`full\` may do what its owner may
  now. A token not valid now (unknown, revoked, expired, its owner gone) answers 401 JSON. Operations
  without the \`bearer\` scheme (\`session/*\`, \`profile/update\`, \`tokens/create\`) answer 403 to a token.
- **Administrators**: endpoints marked \`x-overseer-access: admin\` answer 403 to other users.
- **Basic authentication** is for Monit agents only: \`POST /collector\` (outside this document, the
  Monit agent protocol) takes a user holding the Collector permission.

## CSRF
Sessions logged in with CSRF protection (the default) must send the session's token with every
mutation (operations with \`x-overseer-mutation: true\`): the \`CSRFToken\` header or argument. The
token is the \`CSRFToken\` attribute of \`session/get\` (and \`csrftoken\` of \`profile/get\`). A missing
or wrong token is a 403 \`{"error": "Invalid CSRF token"}\`.

## Errors
Every failure is JSON \`{"error": "..."}\` with its status (400 bad argument, 403 forbidden, 404 unknown
id, 409 conflict, 503 storage full with \`Retry-After\`). A 400 about one argument also names it:
\`{"error": "invalid argument 'port': ...", "argument": "port"}\` (an Overseer extension).`

/** JSON Schema of a zod schema, without the \`$schema\` key (the document's dialect is 2020-12 already). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema
  return rest
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }
})

function operationId(e: ApiEndpoint, method: Method): string {
  const words = e.path.split(/[/.]/).map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1)))
  return `${words.join('')}${e.methods.length > 1 ? method.charAt(0) + method.slice(1).toLowerCase() : ''}`
}

function argumentsOf(e: ApiEndpoint, method: Method): Record<string, unknown> {
  const names = Object.keys(e.params)
  if (names.length === 0) return {}
  const schema = jsonSchema(z.object(e.params), 'input')
  if (method === 'POST') {
    const type = e.input === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'
    return { requestBody: { required: ((schema.required as string[] | undefined) ?? []).length > 0, content: { [type]: { schema } } } }
  }
  const properties = schema.properties as Record<string, JsonSchema>
  const required = new Set((schema.required as string[] | undefined) ?? [])
  return {
    parameters: names.map((name) => ({
      name,
      in: 'query',
      required: required.has(name),
      schema: properties[name],
      ...(properties[name].type === 'array' && { style: 'form', explode: true })
    }))
  }
}

function answerOf(e: ApiEndpoint): Record<string, unknown> {
  const content =
    e.answer === 'text/event-stream'
      ? { 'text/event-stream': { schema: { type: 'string', description: 'Server-Sent Events' } } }
      : e.answer === 'text/csv'
        ? { 'text/csv': { schema: { type: 'string', description: 'Comma-separated values, a header line first' } } }
        : { 'application/json': { schema: jsonSchema(e.answer, 'output') } }
  if (e.access !== 'public') {
    Object.assign(content, { 'text/html': { schema: { type: 'string', description: 'The login page: the session is not logged in' } } })
  }
  return { description: 'The answer', content }
}

function operation(e: ApiEndpoint, method: Method): Record<string, unknown> {
  const access = e.access ?? 'user'
  const responses: Record<string, unknown> = { 200: answerOf(e) }
  if (Object.keys(e.params).length > 0 || e.input === 'json') responses[400] = errorResponse('A bad argument, named in `argument`')
  if (access === 'admin' || e.mutation)
    responses[403] = errorResponse(access === 'admin' ? 'Not an administrator, or no valid CSRF token' : 'No valid CSRF token')
  if (access !== 'public') responses[401] = errorResponse('An API token not valid now: unknown, revoked or expired')
  responses[405] = errorResponse('Another method than those listed')
  return {
    operationId: operationId(e, method),
    summary: e.summary,
    tags: [e.path.split('/')[0]],
    security: access === 'public' ? [] : securityOf(e),
    ...argumentsOf(e, method),
    responses,
    'x-overseer-access': access,
    ...(e.mutation && { 'x-overseer-mutation': true }),
    ...(e.extension && { 'x-overseer-extension': true }),
    ...(e.versions && { 'x-overseer-prefixes': e.versions.map(prefixOf) })
  }
}

/** A session (with its CSRF token for mutations), or an API token unless the endpoint needs a session. */
function securityOf(e: ApiEndpoint): Record<string, string[]>[] {
  const session: Record<string, string[]> = e.mutation ? { session: [], csrfToken: [] } : { session: [] }
  return e.needsSession ? [session] : [session, { bearer: [] }]
}

const prefixOf = (version: ApiVersion): string => Object.entries(API_PREFIXES).find(([, v]) => v === version)![0] || '/'

/** The document for `endpoints`; an endpoint declared once per version (admin/users/create) is listed by its api/2 declaration. */
export function openApiDocument(endpoints: readonly ApiEndpoint[], serverVersion: string) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const e of endpoints) {
    if (e.versions && !e.versions.includes(2)) continue
    paths[`/api/2/${e.path}`] = Object.fromEntries(e.methods.map((m) => [m.toLowerCase(), operation(e, m)]))
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Overseer API', version: serverVersion, description: DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: '/', description: 'The server that serves this document' }],
    paths,
    components: {
      schemas: { Error: jsonSchema(errorAnswer, 'output') },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'zsessionid', description: 'A session logged in through POST /z_security_check' },
        csrfToken: {
          type: 'apiKey',
          in: 'header',
          name: 'CSRFToken',
          description: "The session's CSRF token (session/get), for mutations"
        },
        bearer: { type: 'http', scheme: 'bearer', description: 'A personal API token (tokens/create): ovs_ and 43 characters' },
        collector: { type: 'http', scheme: 'basic', description: 'Monit agents posting to /collector (not part of this document)' }
      }
    }
  }
}
