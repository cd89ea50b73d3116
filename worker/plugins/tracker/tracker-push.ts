import { namedBatch } from '../../../drivers/named-batch.ts'
import { readRow } from '../../../drivers/read-row.ts'
import { TRACKER_MESSAGES, TRACKER_NAMES, type TrackerIssueView } from '../../../shared/schemas/tracker.ts'
import { NotFoundError, OperationalError } from '../../errors.ts'
import { ISSUE_NOT_FOUND } from '../../issues/issue-messages.ts'
import { appSettings, settingValue } from '../../settings/app-settings.ts'
import { toTimestamp } from '../../time.ts'
import { trackerClient, trackerFor, type TrackerContext } from './tracker-context.ts'
import { linkStatement, toLink } from './tracker-links.ts'
import { decodeIntegration, filtersOf, INTEGRATION_SETTING, openApiKey } from './tracker-settings.ts'

/** A stack excerpt of at most this many lines and characters goes into the tracker issue. */
const STACK_LINES = 25
const STACK_CHARS = 4000

/** `GET ?api=tracker-issue&id=`: the tracker issue a Loupe issue is linked to, or null. 404 for an unknown issue. */
export async function getTrackerIssue(context: TrackerContext, id: number): Promise<TrackerIssueView> {
  const { scope } = context
  const { issue, link } = await namedBatch(scope.db, { issue: { sql: `SELECT id FROM ${scope.t.groups} WHERE id = ?`, args: [id] }, link: linkStatement(scope, id) }, { mode: 'read' })
  if (!issue.rows[0]) throw new NotFoundError(ISSUE_NOT_FOUND)
  return { id, link: toLink(link.rows) }
}

/**
 * `POST ?api=tracker-issue {id}` (push, issue 16): creates a tracker issue from a Loupe issue — its title, a
 * link back to it, severity, counts and a stack excerpt — and links them. An issue already linked answers its
 * link (`created: false`) without calling the tracker. Round trips: one read, one write.
 */
export async function pushTrackerIssue(context: TrackerContext, id: number): Promise<TrackerIssueView & { created: boolean }> {
  const { scope } = context
  const { t } = scope
  const read = await namedBatch(scope.db, {
    issue: { sql: `SELECT id, title, severity, status, count, first_seen, last_seen, sample_message, sample_stack FROM ${t.groups} WHERE id = ?`, args: [id] },
    link: linkStatement(scope, id),
    integration: appSettings.read(scope, INTEGRATION_SETTING),
  })
  const row = read.issue.rows[0]
  if (!row) throw new NotFoundError(ISSUE_NOT_FOUND)
  const existing = toLink(read.link.rows)
  if (existing) return { id, link: existing, created: false }
  const integration = decodeIntegration(settingValue(read.integration.rows))
  if (!integration.enabled) throw new OperationalError(TRACKER_MESSAGES.notEnabled)
  const tracker = trackerFor(integration.provider)
  const filters = filtersOf(integration)
  const missing = tracker.missingPushTarget(filters)
  if (missing) throw new OperationalError(missing)
  const apiKey = await openApiKey(context, integration)
  if (!apiKey) throw new OperationalError(TRACKER_MESSAGES.keyRequired(TRACKER_NAMES[integration.provider], 'TRACKER_API_KEY'))

  const issue = readRow(row, { id: 'number', title: 'string', severity: 'string', status: 'string', count: 'number', first_seen: 'string', last_seen: 'string', sample_message: 'string?', sample_stack: 'string?' }, 'issue')
  const link = `${context.baseUrl.replace(/\/+$/, '')}/?app=${encodeURIComponent(scope.app.id)}&issue=${id}`
  const lines = [
    `Created from Loupe issue [#${id}](${link}).`,
    '',
    `**${issue.severity}** · ${issue.count} occurrence${issue.count === 1 ? '' : 's'} · first seen ${issue.first_seen} UTC · last seen ${issue.last_seen} UTC`,
  ]
  if (issue.sample_message && issue.sample_message !== issue.title) lines.push('', '> ' + issue.sample_message.slice(0, 1000).replaceAll('\n', '\n> '))
  const stack = excerpt(issue.sample_stack)
  if (stack) lines.push('', '```', stack, '```')
  const created = await tracker.createIssue(trackerClient(context, tracker, apiKey), filters, { title: issue.title.slice(0, 255), body: lines.join('\n') })

  const at = toTimestamp(context.now)
  const d = scope.db.dialect
  // A concurrent push of the same issue may have linked first: its link is kept and answered.
  const { stored } = await namedBatch(scope.db, {
    insert: {
      sql: d.insertIgnore(t.trackerLinks, ['group_id', 'provider', 'external_id', 'identifier', 'url', 'state', 'via', 'created_at', 'updated_at'], `VALUES (?, ?, ?, ?, ?, ?, 'push', ?, ?)`, ['group_id']),
      args: [id, tracker.provider, created.id, created.identifier, created.url, created.state, at, at],
    },
    stored: linkStatement(scope, id),
  })
  return { id, link: toLink(stored.rows), created: true }
}

function excerpt(stack: string | null): string | null {
  if (!stack?.trim()) return null
  const lines = stack.trim().split('\n').slice(0, STACK_LINES).join('\n')
  // A fence inside the excerpt would end the code block early.
  return lines.slice(0, STACK_CHARS).replaceAll('```', "'''")
}
