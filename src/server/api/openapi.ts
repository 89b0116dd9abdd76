// GET /api/2/openapi.json (our extension, public): the API described as OpenAPI 3.1 (openapi-document.ts).
import { z } from 'zod'
import { endpoint, type ApiEndpoint } from '../http/api'
import { openApiDocument } from './openapi-document'

export function openApiEndpoint(documented: () => readonly ApiEndpoint[], serverVersion: string): ApiEndpoint {
  let document: ReturnType<typeof openApiDocument> | undefined
  return endpoint({
    path: 'openapi.json',
    methods: ['GET'],
    access: 'public',
    versions: [2],
    extension: true,
    summary: 'This document: the API as OpenAPI 3.1',
    params: {},
    answer: z.object({
      openapi: z.string(),
      info: z.object({ title: z.string(), version: z.string() }),
      paths: z.record(z.string(), z.unknown())
    }),
    // Built once, on first request: the endpoint table does not change while the server runs.
    handle: () => (document ??= openApiDocument(documented(), serverVersion))
  })
}
