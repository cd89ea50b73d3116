import { TRACKER_MESSAGES, TRACKER_NAMES, type TrackerTestResult } from '../../../shared/schemas/tracker.ts'
import { OperationalError } from '../../errors.ts'
import { trackerClient, trackerFor, type TrackerContext } from './tracker-context.ts'
import { loadIntegration, openApiKey } from './tracker-settings.ts'

/** `POST ?api=tracker-test` (reference §4.5 `linear-test`): asks the tracker who the key belongs to. Works before enabling. */
export async function testTracker(context: TrackerContext): Promise<TrackerTestResult> {
  const { integration } = await loadIntegration(context.scope)
  const tracker = trackerFor(integration.provider)
  const apiKey = await openApiKey(context, integration)
  if (!apiKey) throw new OperationalError(TRACKER_MESSAGES.keyRequired(TRACKER_NAMES[integration.provider], 'TRACKER_API_KEY').replace(' before enabling the integration', ' before testing the connection'))
  return { ok: true, provider: tracker.provider, viewer: await tracker.viewer(trackerClient(context, tracker, apiKey)) }
}
