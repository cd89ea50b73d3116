import { INGEST_MESSAGES, type IngestResult } from '../../../shared/schemas/ingest.ts'
import { namedBatch } from '../../../drivers/named-batch.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { NotFoundError, RateLimitedError, UnauthorizedError } from '../../errors.ts'
import { PLUGIN_MESSAGES } from '../../../shared/schemas/plugin.ts'
import type { Plugin } from '../plugin.ts'
import { decodePluginSettings, isPluginEnabled, readPluginSettings } from '../plugin-settings.ts'
import type { SecretBox } from '../../security/secret-box.ts'
import { secretsEqual } from '../../security/secrets-equal.ts'
import { appSettings, settingValue } from '../../settings/app-settings.ts'
import { toTimestamp } from '../../time.ts'
import type { INGEST_SECTION } from './ingest-config.ts'
import type { IngestEvent } from './ingest-event.ts'
import { INGEST_KEY_SETTING, openIngestKey } from './ingest-key.ts'
import { countRateEvents, rateAllowance, rateWindow, readRateCounters, type RateCap } from './rate-limit.ts'
import { stageStatements } from './staged-events.ts'

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
  /** Reads the events once the key is known good (so nobody without the key costs a parse). */
  readonly readEvents: () => IngestEvent[]
  /** Builds the 429 for this intake (HTTP ingest's body fields, Sentry's headers). */
  readonly rateLimited?: (retryAfter: number) => RateLimitedError
}

/**
 * Accepts a batch of events (reference §4.3): the plugin's switch, the key and the rate counters are read in
 * one round trip (a disabled plugin is a 404), the
 * key is checked in constant time (never minted here: until someone opened the ingest settings every push is
 * refused), the events are read, the allowance is taken from the sliding window — the batch's last events
 * over it are dropped, and nothing allowed is a 429 — and the accepted events are staged together with
 * their count against the window in one atomic batch. Two round trips; the digest stores them later.
 */
export async function acceptEvents(request: AcceptRequest): Promise<IngestResult> {
  const { scope, settings, now } = request
  const window = rateWindow(now, settings.rate_window_seconds)
  const caps: RateCap[] = [{ scope: 'app', max: settings.rate_max_events }]
  if (settings.rate_max_events_per_ip > 0 && request.clientIp) caps.push({ scope: `ip:${request.clientIp.slice(0, 57)}`, max: settings.rate_max_events_per_ip })
  const { switches, stored, counters } = await namedBatch(
    scope.db,
    { switches: readPluginSettings(scope, [request.plugin]), stored: appSettings.read(scope, INGEST_KEY_SETTING), counters: readRateCounters(scope, caps, window) },
    { mode: 'read' },
  )
  if (!isPluginEnabled(request.plugin, decodePluginSettings([request.plugin], switches.rows))) throw new NotFoundError(PLUGIN_MESSAGES.disabled)
  const sealed = settingValue(stored.rows)
  const key = sealed === null ? null : await openIngestKey(scope, request.secrets, sealed)
  if (key === null || request.presentedKey === null || !(await secretsEqual(request.presentedKey, key))) throw new UnauthorizedError(INGEST_MESSAGES.keyRequired)

  const events = request.readEvents()
  // A Sentry envelope of sessions or client reports only: authenticated, nothing to count or store.
  if (events.length === 0) return { accepted: 0, received: 0, dropped: 0 }
  const accepted = Math.min(events.length, rateAllowance(counters.rows, caps, window))
  if (accepted === 0) {
    throw request.rateLimited?.(window.retryAfter) ?? new RateLimitedError(INGEST_MESSAGES.rateLimited, window.retryAfter, { body: { rate_limited: true, retry_after: window.retryAfter } })
  }
  await namedBatch(scope.db, { stage: stageStatements(scope, events.slice(0, accepted), request.via, toTimestamp(now)), count: countRateEvents(scope, caps, window, accepted) })
  return { accepted, received: events.length, dropped: events.length - accepted }
}
