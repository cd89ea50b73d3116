import { ApplicationInputSchema } from '../../shared/schemas/application.ts'
import type { ApiRouter } from '../http/router.ts'
import { route } from '../http/router.ts'
import { created, json } from '../http/respond.ts'
import { readJson } from '../http/read-body.ts'
import { createApplication, listApplications } from './applications.ts'

/** `?api=applications` — the one endpoint outside any application (seed §1). */
export function registerApplicationRoutes(router: ApiRouter): void {
  route(router, '/applications', {
    GET: async (_request, deps) => json({ data: await listApplications(deps) }),
    POST: async (request, deps) => {
      const input = await readJson(request, ApplicationInputSchema, deps.config.maxBodyBytes)
      return created(await createApplication(deps, input))
    },
  })
}
