import { InvalidInputError } from '../errors.ts'
import { queryInteger } from '../http/query.ts'
import { json } from '../http/respond.ts'
import { route, type ApiRouter } from '../http/router.ts'
import { scopeOf, withApp } from '../http/with-app.ts'
import { CONTEXT_LINES_DEFAULT, CONTEXT_LINES_MAX, readEventContext } from './event-context.ts'
import { getIssueValues, VALUES_TOP_DEFAULT, VALUES_TOP_MAX } from './issue-values.ts'

const ID_MAX = Number.MAX_SAFE_INTEGER

/** The issue page's own reads (issue 17 item 7, docs/api.md "Issue page"): event context and value breakdown. */
export function registerIssuePageRoutes(router: ApiRouter): void {
  route(
    router,
    '/event-context',
    {
      GET: async (request, deps) => {
        const id = queryInteger(request.query, 'id', { min: 1, max: ID_MAX })
        if (id === undefined) throw new InvalidInputError(`id must be an occurrence id (an integer from 1 to ${ID_MAX}).`)
        const lines = queryInteger(request.query, 'lines', { min: 0, max: CONTEXT_LINES_MAX, fallback: CONTEXT_LINES_DEFAULT })
        return json(await readEventContext(scopeOf(request), deps.logs, id, lines))
      },
    },
    [withApp],
  )
  route(
    router,
    '/issue-values',
    {
      GET: async (request) => {
        const id = queryInteger(request.query, 'id', { min: 1, max: ID_MAX })
        if (id === undefined) throw new InvalidInputError(`id must be an issue id (an integer from 1 to ${ID_MAX}).`)
        const top = queryInteger(request.query, 'top', { min: 1, max: VALUES_TOP_MAX, fallback: VALUES_TOP_DEFAULT })
        return json(await getIssueValues(scopeOf(request), id, top))
      },
    },
    [withApp],
  )
}
