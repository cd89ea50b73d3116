import type { AlertChannelType, AlertPayload, AlertTrigger } from '../../../shared/schemas/alerts.ts'

/** Items an alert lists; the rest are counted in `more` (reference §4.2). */
export const ALERT_ITEMS_SHOWN = 5

const HEADERS: Record<AlertPayload['trigger'], { readonly icon: string; readonly label: string }> = {
  new_error: { icon: '🚨', label: 'New error' },
  reoccurrence: { icon: '🔁', label: 'Reoccurrence' },
  spike: { icon: '📈', label: 'Spike' },
  test: { icon: '✅', label: 'Test' },
}

export interface AlertIssue {
  readonly severity: string
  readonly title: string
  readonly count: number
}

/** One consolidated alert for a rule's issues of one scan: `N new issue(s)`, `N issue(s) reoccurred`, `N issue(s) spiking`. */
export function alertPayload(trigger: AlertTrigger, issues: readonly AlertIssue[], url: string | null): AlertPayload {
  const n = issues.length
  const summary =
    trigger === 'new_error' ? `${n} new issue${n === 1 ? '' : 's'}` : trigger === 'reoccurrence' ? `${n} issue${n === 1 ? '' : 's'} reoccurred` : `${n} issue${n === 1 ? '' : 's'} spiking`
  const items = issues.slice(0, ALERT_ITEMS_SHOWN).map(({ severity, title, count }) => ({ severity, title, count }))
  return { trigger, summary, items, more: Math.max(0, n - ALERT_ITEMS_SHOWN), url }
}

/** What `alert-test` sends (reference §4.2). */
export function testPayload(url: string | null): AlertPayload {
  return { trigger: 'test', summary: 'Alerting is connected.', items: [{ severity: 'INFO', title: 'This is a test notification.', count: 1 }], more: 0, url }
}

/**
 * The text Slack and Discord show: a header line (icon, the label in bold, an em dash, the summary), a line
 * per item `• [SEV] title (N×)`, `…and N more`, then the URL.
 */
export function alertText(payload: AlertPayload): string {
  const { icon, label } = HEADERS[payload.trigger]
  const lines = [`${icon} *${label}* — ${payload.summary}`, ...payload.items.map((item) => `• [${item.severity}] ${item.title} (${item.count}×)`)]
  if (payload.more > 0) lines.push(`…and ${payload.more} more`)
  if (payload.url) lines.push(payload.url)
  return lines.join('\n')
}

/** The request body for a channel type: Slack `{text}`, Discord `{content}`, a webhook the alert JSON itself. */
export function channelBody(type: AlertChannelType, payload: AlertPayload): string {
  if (type === 'slack') return JSON.stringify({ text: alertText(payload) })
  if (type === 'discord') return JSON.stringify({ content: alertText(payload).replace(/\*([^*\n]+)\*/, '**$1**') })
  return JSON.stringify(payload)
}
