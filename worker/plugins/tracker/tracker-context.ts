import type { TrackerProvider } from '../../../shared/schemas/tracker.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import type { SecretBox } from '../../security/secret-box.ts'
import type { TrackerConfig } from './tracker-config.ts'
import type { Tracker, TrackerClient } from './tracker.ts'
import { TRACKERS } from './trackers.ts'

/** What the tracker's domain functions work with; built by the handlers and the status hook, never from a Request. */
export interface TrackerContext {
  readonly scope: AppScope
  readonly secrets: SecretBox
  readonly config: TrackerConfig
  /** `TRACKER_API_KEY` / `TRACKER_WEBHOOK_SECRET` from the environment (they win and lock). */
  readonly env: { readonly apiKey: string | null; readonly webhookSecret: string | null }
  /** Whether SERVICE_SECRET is set (stored secrets can be sealed). */
  readonly hasSecret: boolean
  /** `SERVICE_URL`, or the base of the request; links back to Loupe and the webhook address start here. */
  readonly baseUrl: string
  readonly now: Date
}

export function trackerFor(provider: TrackerProvider): Tracker {
  return TRACKERS[provider]
}

/** The client of `tracker` with `apiKey`: the configured base URL (or the tracker's own) under the outbound policy. */
export function trackerClient(context: TrackerContext, tracker: Tracker, apiKey: string): TrackerClient {
  const configured = tracker.provider === 'linear' ? context.config.linear_url : context.config.github_url
  return {
    baseUrl: configured ?? tracker.defaultBaseUrl,
    apiKey,
    policy: { allowLocalTargets: context.config.allow_local_targets, timeoutMs: context.config.timeout_ms },
  }
}
