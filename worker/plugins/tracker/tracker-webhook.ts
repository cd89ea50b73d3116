import { TRACKER_MESSAGES, type TrackerSyncResult } from '../../../shared/schemas/tracker.ts'
import { NotFoundError, OperationalError, UnauthorizedError } from '../../errors.ts'
import { secretsEqual } from '../../security/secrets-equal.ts'
import { trackerFor, type TrackerContext } from './tracker-context.ts'
import { loadIntegration, openWebhookSecret } from './tracker-settings.ts'
import { syncTracker } from './tracker-sync.ts'

/**
 * `POST ?api=tracker-webhook&app=…` (seed §5: self-authenticating; reference §4.5 steps 1–5): 404 while the
 * integration is off, 400 without a webhook secret, 401 unless the tracker's signature header carries the
 * HMAC-SHA256 of the raw body under the secret (compared in constant time). The payload is not interpreted:
 * a verified call runs a sync, which reads the tracker's own state.
 */
export async function receiveTrackerWebhook(context: TrackerContext, rawBody: Uint8Array, signature: (header: string) => string | null): Promise<{ ok: true; synced: TrackerSyncResult }> {
  const { integration } = await loadIntegration(context.scope)
  if (!integration.enabled) throw new NotFoundError(TRACKER_MESSAGES.notEnabled)
  const tracker = trackerFor(integration.provider)
  const secret = await openWebhookSecret(context, integration)
  if (!secret) throw new OperationalError(TRACKER_MESSAGES.noWebhookSecret(tracker.name))
  const presented = signature(tracker.signatureHeader)
  const expected = await tracker.expectedSignature(secret, rawBody)
  if (presented === null || !(await secretsEqual(presented.trim(), expected))) throw new UnauthorizedError(TRACKER_MESSAGES.badSignature(tracker.name))
  return { ok: true, synced: await syncTracker(context) }
}
