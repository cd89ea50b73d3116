import { Router, type IRequest, type RouterType } from 'itty-router'
import type { Deps } from '../deps.ts'
import type { AppScope } from '../apps/app-scope.ts'
import { MethodNotAllowedError } from '../errors.ts'
import { toErrorResponse } from './error-response.ts'
import { json } from './respond.ts'
import { withGuard } from './guard.ts'

/** A request as handlers see it: itty's parsed `query`, plus the application scope on scoped routes. */
export type ApiRequest = IRequest & { scope?: AppScope }
export type Handler = (request: ApiRequest, deps: Deps) => Response | undefined | void | Promise<Response | undefined | void>
export type ApiRouter = RouterType<ApiRequest, [Deps]>
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'

export const UNKNOWN_ENDPOINT_MESSAGE = 'Unknown endpoint.'

/**
 * The API router: the guard runs before every route, one `catch` turns every error into the JSON error
 * envelope, and the `finally` stage answers what no route claimed with 404 and adds `Server-Timing`. Routes
 * are the `api` value as a path (`?api=tags` → `/tags`; see app.ts).
 */
export function createRouter(): ApiRouter {
  return Router<ApiRequest, [Deps]>({
    before: [withGuard],
    catch: (error) => toErrorResponse(error),
    finally: [(response: Response | undefined, _request: ApiRequest, deps: Deps) => withServerTiming(response ?? json({ error: UNKNOWN_ENDPOINT_MESSAGE }, 404), deps)],
  })
}

/** `Server-Timing: db;dur=…;desc="<n> round trips"` on responses that touched the database (config `server_timing`). */
function withServerTiming(response: Response, deps: Deps): Response {
  if (!deps.config.serverTiming || deps.databases.stats.roundTrips === 0) return response
  const timed = new Response(response.body, response)
  timed.headers.set('server-timing', deps.databases.stats.toServerTiming())
  return timed
}

/**
 * Registers one endpoint: a handler per method, optional middleware (e.g. `withApp`) in front of them, and a
 * fallback that answers other methods with 405 and an `Allow` header (OPTIONS gets 204 with `Allow`).
 * HEAD is served by the GET handler.
 */
export function route(
  router: ApiRouter,
  path: string,
  handlers: Partial<Record<Method, Handler>>,
  middleware: readonly Handler[] = [],
): void {
  const registered = Object.keys(handlers) as Method[]
  // An OPTIONS handler (CORS preflights of the ingest endpoints) is served, but not named as a method to use.
  const methods = registered.filter((method) => method !== 'OPTIONS')
  for (const method of registered) {
    const handler = handlers[method]!
    router[method.toLowerCase() as Lowercase<Method>](path, ...middleware, handler)
    if (method === 'GET') router.head(path, ...middleware, handler)
  }
  const allowed = methods.includes('GET') ? ['GET', 'HEAD', ...methods.filter((m) => m !== 'GET')] : methods
  router.all(path, (request: ApiRequest) => {
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: [...allowed, 'OPTIONS'].join(', ') } })
    throw new MethodNotAllowedError(methods, allowed)
  })
}
