import type { QueryResult, Statement } from '../../../drivers/driver.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import type { IssueStatus } from '../../../shared/constants.ts'
import type { TrackerWriteBack } from '../../../shared/schemas/tracker.ts'
import { toTimestamp } from '../../time.ts'
import { trackerClient, trackerFor, type TrackerContext } from './tracker-context.ts'
import { linkStatement, toLink } from './tracker-links.ts'
import { decodeIntegration, INTEGRATION_SETTING, openApiKey } from './tracker-settings.ts'

/** How a status reads in the write-back comment (`Marked **Won't Fix**.`, reference §4.5). */
const STATUS_LABELS: Readonly<Record<IssueStatus, string>> = { open: 'Open', in_progress: 'In Progress', fixed: 'Fixed', wont_fix: "Won't Fix", reoccurred: 'Reoccurred' }

/** What the write-back reads in the status change's own batch (`Plugin.statusChangeReads`): the issue's link. */
export function writeBackReads(scope: AppScope, issueId: number): Statement[] {
  return [linkStatement(scope, issueId)]
}

/** The setting it reads with the plugins' switches (`Plugin.statusChangeSettings`): the integration. */
export const WRITE_BACK_SETTINGS = [INTEGRATION_SETTING] as const

/**
 * The `statusChanged` hook (reference §4.5 write-back): when write-back is on and the issue is linked to a tracker
 * issue (mirrored or pushed), the tracker issue moves to the matching state, with the comment `Marked **Fixed**.`
 * and the note quoted when `status_writeback_comment` is on. Nothing (undefined) for issues without a link or
 * with write-back off. A failure throws: the plugin framework keeps it as the plugin's `last_error` and the
 * status change itself stands.
 */
export async function writeBackStatus(context: TrackerContext, issueId: number, status: IssueStatus, note: string | null, prefetched: readonly QueryResult[], settings: ReadonlyMap<string, string>): Promise<TrackerWriteBack | undefined> {
  const { scope } = context
  const [linkRead] = prefetched
  const link = toLink(linkRead?.rows ?? [])
  if (!link) return undefined
  const integration = decodeIntegration(settings.get(INTEGRATION_SETTING) ?? null)
  if (!integration.enabled || !integration.status_writeback) return { written_back: false, reason: 'Status write-back is off.' }
  if (link.provider !== integration.provider) return { written_back: false, reason: 'The issue is linked to another tracker.' }
  const apiKey = await openApiKey(context, integration)
  if (!apiKey) return { written_back: false, reason: 'No API key is configured.' }
  const tracker = trackerFor(integration.provider)
  const comment = integration.status_writeback_comment ? `Marked **${STATUS_LABELS[status]}**.${note ? `\n\n> ${note.replaceAll('\n', '\n> ')}` : ''}` : null
  const result = await tracker.setStatus(trackerClient(context, tracker, apiKey), link.external_id, status, comment)
  if (!result) return { written_back: false, reason: `${tracker.name} has no state for ${STATUS_LABELS[status]}.` }
  await scope.db.execute({ sql: `UPDATE ${scope.t.trackerLinks} SET state = ?, updated_at = ? WHERE group_id = ?`, args: [result.state, toTimestamp(context.now), issueId] })
  return { written_back: true, state: result.state, commented: comment !== null }
}
