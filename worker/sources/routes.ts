import { InvalidInputError } from '../errors.ts'
import { queryInteger } from '../http/query.ts'
import { json } from '../http/respond.ts'
import { route, type ApiRouter } from '../http/router.ts'
import { scopeOf, withApp } from '../http/with-app.ts'
import { readSourceContent } from './source-content.ts'
import { listSources } from './sources.ts'

/** `?api=sources` (paginated source files) and `?api=source` (the raw bytes of one occurrence), reference §3.1. */
export function registerSourceRoutes(router: ApiRouter): void {
  route(
    router,
    '/sources',
    {
      GET: async (request) => {
        const page = queryInteger(request.query, 'page', { min: 1, max: 1_000_000, fallback: 1 })
        const limit = queryInteger(request.query, 'limit', { min: 1, max: 100, fallback: 12 })
        return json(await listSources(scopeOf(request), page, limit))
      },
    },
    [withApp],
  )
  route(
    router,
    '/source',
    {
      GET: async (request, deps) => {
        const occurrence = queryInteger(request.query, 'occurrence', { min: 1, max: Number.MAX_SAFE_INTEGER })
        if (occurrence === undefined) throw new InvalidInputError('occurrence must be an integer from 1 to 9007199254740991.')
        return json(await readSourceContent(scopeOf(request), deps.logs, occurrence))
      },
    },
    [withApp],
  )
}
