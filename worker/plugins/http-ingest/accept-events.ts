import { INGEST_MESSAGES, type IngestResult } from '../../../shared/schemas/ingest.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { NotFoundError, RateLimitedError, UnauthorizedError } from '../../errors.ts'
import { PLUGIN_MESSAGES } from '../../../shared/schemas/plugin.ts'
import type { Plugin } from '../plugin.ts'
import type { SecretBox } from '../../security/secret-box.ts'
import { secretsEqual } from '../../security/secrets-equal.ts'
import { utf8Length } from '../../digest/utf8.ts'
import type { INGEST_SECTION } from './ingest-config.ts'
import type { IngestEvent } from './ingest-event.ts'
import { committerFor } from './ingest-commit.ts'
import { viewCounters, viewCovers, type GateView } from './ingest-gate.ts'
import { openIngestKey } from './ingest-key.ts'
import { rateAllowance, rateWindow, withReserved, type RateCap } from './rate-limit.ts'
import { stagedRow } from './staged-events.ts'

/** Where an intake came from: `http` (`?api=ingest`) or `sentry` (the Sentry endpoints). */
export type IngestVia = 'http' | 'sentry'

export interface AcceptRequest {
  readonly scope: AppScope
  /** The HTTP ingest plugin: its switch is read with the key (a disabled plugin's routes answer 404). */
  readonly plugin: Plugin
  readonly secrets: SecretBox
  readonly settings: ReturnType<typeof INGEST_SECTION.read>
  /** The key the client presented (header, bearer, query or DSN), or null. */
  readonly presentedKey: string | null
  /** The client's address, for the optional per-IP cap. */
  readonly clientIp: string | null
  readonly via: IngestVia
  readonly now: Date
  /** The isolate's application registry: accepted requests of one isolate are committed together. */
  readonly isolate: object
  /** The request's `waitUntil`: a commit it leads outlives a client that hangs up. */
  readonly waitUntil: (promise: Promise<unknown>) => void
  /** Reads the events once the key is known good (so nobody without the key costs a parse). */
  readonly readEvents: () => IngestEvent[]
  /** Builds the 429 for this intake (HTTP ingest's body fields, Sentry's headers). */
  readonly rateLimited?: (retryAfter: number) => RateLimitedError
}

/**
 * Accepts a batch of events (reference §4.3). The plugin's switch, the sealed key and the rate counters come
 * from the isolate's gate view (ingest-gate.ts) — read in one round trip when it is missing or older than a
 * second, and otherwise kept fresh by every commit; a request the view would refuse is judged again on a
 * fresh read. The key is checked in constant time (never minted here: until someone opened the ingest
 * settings every push is refused), the events are read, the allowance is taken from the sliding window —
 * the batch's last events over it are dropped, and nothing allowed is a 429 — and the accepted events join
 * the next group commit (ingest-commit.ts): one atomic batch for every request waiting, which stages them only
 * while the key and the switch are what this request was checked against. Under load that is one round trip
 * shared by the requests in flight; the digest stores the events later.
 */
export async function acceptEvents(request: AcceptRequest): Promise<IngestResult> {
  const { scope, settings, now } = request
  const window = rateWindow(now, settings.rate_window_seconds)
  const caps: RateCap[] = [{ scope: 'app', max: settings.rate_max_events }]
  if (settings.rate_max_events_per_ip > 0 && request.clientIp) caps.push({ scope: `ip:${request.clientIp.slice(0, 57)}`, max: settings.rate_max_events_per_ip })
  const committer = committerFor(request.isolate, scope)
  const fresh = () => committer.refresh(scope, request.plugin, caps, window)
  const cached = committer.view
  let view = viewCovers(cached, caps, window, now.getTime()) ? cached : await fresh()
  let sealed = await admitted(request, view)
  if (sealed === null && view === cached) sealed = await admitted(request, (view = await fresh()))
  if (sealed === null) throw refusal(view)

  const events = request.readEvents()
  // A Sentry envelope of sessions or client reports only: authenticated, nothing to count or store.
  if (events.length === 0) return { accepted: 0, received: 0, dropped: 0 }
  const allowance = (from: GateView) => rateAllowance(withReserved(viewCounters(from, caps), committer.reserved, window), caps, window)
  let accepted = Math.min(events.length, allowance(view))
  if (accepted === 0 && view === cached) accepted = Math.min(events.length, allowance((view = await fresh())))
  if (accepted === 0) {
    throw request.rateLimited?.(window.retryAfter) ?? new RateLimitedError(INGEST_MESSAGES.rateLimited, window.retryAfter, { body: { rate_limited: true, retry_after: window.retryAfter } })
  }
  const rows = events.slice(0, accepted).map((event) => stagedRow(event, request.via))
  const outcome = await committer.stage({
    scope,
    plugin: request.plugin,
    rows,
    bytes: rows.reduce((sum, row) => sum + utf8Length(row), 0),
    caps,
    window,
    sealed,
    windowSeconds: settings.rate_window_seconds,
  }, request.waitUntil)
  // The switch or the key changed under the request: nothing of it was staged; answer as the new state says.
  if (outcome === 'closed') throw refusal(committer.view!)
  return { accepted, received: events.length, dropped: events.length - accepted }
}

/** The sealed key the request's key opens against, when the plugin is on; null when it is refused. */
async function admitted(request: AcceptRequest, view: GateView): Promise<string | null> {
  if (!view.enabled || view.sealed === null || request.presentedKey === null) return null
  const key = await openIngestKey(request.scope, request.secrets, view.sealed)
  return (await secretsEqual(request.presentedKey, key)) ? view.sealed : null
}

/** 404 while the plugin is off, else 401 (the key is missing, wrong, or was just replaced). */
function refusal(view: GateView): Error {
  if (!view.enabled) return new NotFoundError(PLUGIN_MESSAGES.disabled)
  return new UnauthorizedError(INGEST_MESSAGES.keyRequired)
}
