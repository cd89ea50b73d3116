import { ModuleInputSchema } from '../../shared/schemas/module.ts'
import { readJson } from '../http/read-body.ts'
import { created, json } from '../http/respond.ts'
import { route, type ApiRouter } from '../http/router.ts'
import { scopeOf, withApp } from '../http/with-app.ts'
import { toTimestamp } from '../time.ts'
import { createModule, listModules } from './modules.ts'

/** `?api=modules` (reference §3.3). */
export function registerModuleRoutes(router: ApiRouter): void {
  route(
    router,
    '/modules',
    {
      GET: async (request) => json({ data: await listModules(scopeOf(request)) }),
      POST: async (request, deps) => {
        const input = await readJson(request, ModuleInputSchema, deps.config.maxBodyBytes)
        return created(await createModule(scopeOf(request), input, toTimestamp(deps.now())))
      },
    },
    [withApp],
  )
}
