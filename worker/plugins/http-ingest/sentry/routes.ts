import type { Deps } from '../../../deps.ts'
import { NotFoundError, RateLimitedError } from '../../../errors.ts'
import { json } from '../../../http/respond.ts'
import type { ApiRequest, Handler } from '../../../http/router.ts'
import { openScopeByNamespace } from '../../../apps/open-scope.ts'
import { toErrorResponse } from '../../../http/error-response.ts'
import type { Plugin, PluginPath } from '../../plugin.ts'
import { acceptEvents } from '../accept-events.ts'
import { INGEST_SECTION } from '../ingest-config.ts'
import { clientAddress, INGEST_CORS_HEADERS } from '../ingest-request.ts'
import { scheduleDigest } from '../schedule-digest.ts'
import { dsnParts, itemJson, parseEnvelope } from './envelope.ts'
import { readSentryBody } from './sentry-body.ts'
import { eventIdOf, sentryToIngestEvent } from './sentry-event.ts'

export const SENTRY_MESSAGES = {
  unknownProject: 'Unknown project. The DSN names the application by its numeric id (see ?api=ingest-settings).',
  rateLimited: 'Ingest rate limit reached for this application.',
} as const

/**
 * Sentry's store and envelope endpoints (https://develop.sentry.dev/sdk/overview/), which SDKs derive from
 * the DSN `https://<ingest key>@<host>/<application namespace>`. The key comes from `X-Sentry-Auth`
 * (`sentry_key=`), `?sentry_key=` (browser SDKs), or the envelope header's `dsn`. Every answer carries CORS
 * headers, errors included, so browser SDKs can read a 429's `Retry-After` and back off.
 */
export function sentryPaths(plugin: () => Plugin): PluginPath[] {
  const handlers = (kind: 'store' | 'envelope'): PluginPath['handlers'] => ({
    POST: withCors((request, deps) => ingestSentry(request, deps, kind, plugin())),
    OPTIONS: async () => new Response(null, { status: 204, headers: INGEST_CORS_HEADERS }),
  })
  return [
    { path: '/api/:project/store/', handlers: handlers('store') },
    { path: '/api/:project/store', handlers: handlers('store') },
    { path: '/api/:project/envelope/', handlers: handlers('envelope') },
    { path: '/api/:project/envelope', handlers: handlers('envelope') },
  ]
}

async function ingestSentry(request: ApiRequest, deps: Deps, kind: 'store' | 'envelope', plugin: Plugin): Promise<Response> {
  const project = String(request.params.project ?? '')
  if (!/^\d{1,9}$/.test(project)) throw new NotFoundError(SENTRY_MESSAGES.unknownProject)
  const scope = await openScopeByNamespace(deps, Number(project))
  if (!scope) throw new NotFoundError(SENTRY_MESSAGES.unknownProject)
  const url = new URL(request.url)
  const bytes = await readSentryBody(request.body, request.headers.get('content-encoding'), deps.config.maxBodyBytes)
  const envelope = kind === 'envelope' ? parseEnvelope(bytes) : null
  const raws = envelope ? envelope.items.filter((item) => item.type === 'event').map(itemJson) : [parseStoreBody(bytes)]
  const settings = deps.config.section(INGEST_SECTION)
  const now = deps.now()
  const result = await acceptEvents({
    scope,
    plugin,
    secrets: deps.secrets,
    settings,
    presentedKey: sentryKey(request.headers, url, envelope ? envelope.header.dsn : null),
    clientIp: clientAddress(request.headers, settings.trust_forwarded_for),
    via: 'sentry',
    now,
    isolate: deps.registry,
    waitUntil: deps.waitUntil,
    readEvents: () => raws.map((raw) => sentryToIngestEvent(raw, now)),
    rateLimited: (retryAfter) =>
      new RateLimitedError(SENTRY_MESSAGES.rateLimited, retryAfter, { headers: { 'x-sentry-rate-limits': `${retryAfter}::organization:rate_limit` } }),
  })
  if (result.accepted > 0) scheduleDigest(deps, scope)
  const id = eventIdOf(envelope?.header.event_id) ?? (raws[0] && typeof raws[0] === 'object' ? eventIdOf((raws[0] as { event_id?: unknown }).event_id) : null)
  return json(id ? { id } : {}, 200)
}

/** The key an SDK presented: `X-Sentry-Auth: Sentry sentry_key=…`, `?sentry_key=`, or the envelope's DSN. */
export function sentryKey(headers: Headers, url: URL, envelopeDsn: unknown): string | null {
  const auth = /(?:^|[\s,])sentry_key=([^,\s]+)/.exec(headers.get('x-sentry-auth') ?? '')?.[1]
  return auth ?? url.searchParams.get('sentry_key') ?? dsnParts(envelopeDsn)?.publicKey ?? null
}

function parseStoreBody(bytes: Uint8Array): unknown {
  return itemJson({ type: 'event', payload: bytes })
}

/** Adds the CORS headers to whatever the handler answers, its errors included. */
function withCors(handler: Handler): Handler {
  return async (request, deps) => {
    let response: Response
    try {
      response = (await handler(request, deps)) ?? json({}, 200)
    } catch (error) {
      response = toErrorResponse(error)
    }
    for (const [name, value] of Object.entries(INGEST_CORS_HEADERS)) response.headers.set(name, value)
    return response
  }
}
